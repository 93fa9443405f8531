import { isDatabaseUnavailable } from "../../../schema/isDatabaseUnavailable.js";
import { type CrossfillError, TransientError, isCrossfillError } from "../../domain/errors.js";

/**
 * The domain error a thrown value stands for at the edge: itself, SERVICE_UNAVAILABLE (retryable) for a database
 * that cannot be reached, or undefined for anything else (an internal error). The database's own message, which
 * may name its host, stays in the cause (logged), never in the answer.
 */
export function domainErrorOf(error: unknown): CrossfillError | undefined {
  if (isCrossfillError(error)) return error;
  if (isDatabaseUnavailable(error))
    return new TransientError("SERVICE_UNAVAILABLE", "the database is unavailable; retry shortly", error);
  return undefined;
}
