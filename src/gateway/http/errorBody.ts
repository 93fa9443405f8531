import { domainErrorOf } from "./domainErrorOf.js";

/** The spec's error body; a quote's failed simulation adds errorData, requestId, approxSimulatedBlock, failedCallData. */
export type ErrorBody = { message: string; errorCode: string; requestId?: string; [field: string]: unknown };

/** The edge translation of any thrown value into a status, the spec's error body and headers; internals stay hidden. */
export function errorBody(thrown: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const error = domainErrorOf(thrown);
  if (!error)
    return {
      status: 500,
      body: { message: "Internal error; it has been logged", errorCode: "UNKNOWN_ERROR" },
      headers: {},
    };
  const headers: Record<string, string> = {};
  if (error.errorCode === "RATE_LIMITED" && error.details) {
    const { retryAfterSeconds, limit, windowSeconds } = error.details as {
      retryAfterSeconds: number;
      limit: number;
      windowSeconds: number;
    };
    headers["Retry-After"] = String(retryAfterSeconds);
    headers.RateLimit = `limit=${limit}, remaining=0, reset=${retryAfterSeconds}`;
    headers["RateLimit-Policy"] = `${limit};w=${windowSeconds}`;
  }
  return {
    status: error.status,
    body: { message: error.message, errorCode: error.errorCode, ...error.data },
    headers,
  };
}
