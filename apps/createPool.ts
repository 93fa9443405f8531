import pg from "pg";

/**
 * The process's Postgres pool. A connection the server ends (a restart, a failover, a fast shutdown) must not
 * take the process down, idle or checked out: pg-pool only listens on idle clients, and a client held across
 * a chain call (a fill under its advisory lock) would otherwise throw an unhandled 'error' event. The query in
 * flight still fails, and the pool replaces the client once it is released.
 */
export function createPool(databaseUrl: string, onError: (error: Error) => void, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  pool.on("connect", (client) => client.on("error", onError));
  // Idle clients' errors reach the listener above too; the pool's own must exist or it throws them.
  pool.on("error", () => undefined);
  return pool;
}
