import type { Queryable } from "./queryable.js";

/**
 * Rebuilds requestStats' daily rollups (migration 0063) from crossfill.requests in one transaction: after a bulk
 * load with the rollup triggers off (schema/seedBenchRequests.ts), or if an operator ever finds them apart
 * (docs/OPERATIONS.md). Request writes wait for it (a SHARE lock): ~5 s for 1M requests.
 */
export async function rebuildRequestStatsRollup(db: Queryable): Promise<void> {
  await db.query("SELECT crossfill.rebuild_request_stats_rollup()");
}
