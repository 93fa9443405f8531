// Socket-level failures to reach the server (node's codes; a multi-address connect fails with an AggregateError of them).
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);
// SQLSTATEs of a server that is going away, starting, or full: 57P01 admin_shutdown, 57P02 crash_shutdown,
// 57P03 cannot_connect_now, 53300 too_many_connections; class 08 is connection exceptions.
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
// pg and pg-pool report these without a code.
const MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/, /is not queryable/];

/**
 * Whether a pg error means the database cannot be reached right now (as opposed to a bad query): the one place
 * that knows, so every edge answers it the same way (503 SERVICE_UNAVAILABLE, retryable).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
    return true;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  return MESSAGES.some((pattern) => pattern.test(error.message));
}
