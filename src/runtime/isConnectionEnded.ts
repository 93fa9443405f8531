/** Postgres's "your session is over" codes: admin shutdown, crash shutdown, cannot connect now (shutting down). */
const SESSION_ENDED_CODES = new Set(["57P01", "57P02", "57P03"]);

/**
 * Whether an error only says a database connection ended. Once the process is stopping these are expected: a
 * Ctrl-C also signals the embedded Postgres, and BullMQ's Postgres backend drops its LISTEN client's error
 * listener before ending it (bullmq 6.7.0, PostgresConnection.close), so the notice can arrive with no listener.
 */
export function isConnectionEnded(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === "string" && SESSION_ENDED_CODES.has(code)) return true;
  return error.message === "Connection terminated unexpectedly" || error.message === "Connection terminated";
}
