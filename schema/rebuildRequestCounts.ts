import type { Queryable } from "./queryable.js";

/**
 * Rebuilds the listing counts (migration 0150) from crossfill.requests in one transaction: after a bulk load with
 * the triggers off (schema/seedBenchRequests.ts), or if an operator ever finds them apart. Request writes wait for
 * it (a SHARE lock).
 */
export async function rebuildRequestCounts(db: Queryable): Promise<void> {
  await db.query("SELECT crossfill.rebuild_request_counts()");
}
