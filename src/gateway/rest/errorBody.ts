import { isCrossfillError } from "../../domain/errors.js";

export type ErrorBody = { message: string; errorCode: string; requestId?: string };

/** The edge translation of any thrown value into a status and the spec's error body; internals stay hidden. */
export function errorBody(error: unknown): { status: number; body: ErrorBody } {
  if (isCrossfillError(error)) return { status: error.status, body: { message: error.message, errorCode: error.errorCode } };
  return { status: 500, body: { message: "Internal error; it has been logged", errorCode: "UNKNOWN_ERROR" } };
}
