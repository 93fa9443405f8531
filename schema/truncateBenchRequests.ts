import type { Queryable } from "./queryable.js";

/**
 * Benchmark data only: empties the request tables and what hangs off them (deposits, fills, status events) and the
 * API keys, so seedBenchRequests can seed another size into the same database. The requestStats rollups are
 * emptied by the requests table's own TRUNCATE trigger (migration 0063).
 */
export async function truncateBenchRequests(db: Queryable): Promise<void> {
  await db.query(
    "TRUNCATE crossfill.requests, crossfill.request_deposits, crossfill.request_fills, crossfill.api_keys CASCADE",
  );
}
