import type { Queryable } from "./queryable.js";

/**
 * Folds the requestStats rollups' pending changes (migration 0063) into the daily rollups: the worker's stats tick
 * calls it, so readers add up only the changes since the last tick. Answers how many change rows it moved, or
 * null when another fold was running (it skips rather than waits).
 */
export async function foldRequestStatsChanges(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ moved: string | null }>("SELECT crossfill.fold_request_stats_changes() AS moved");
  return rows[0]!.moved === null ? null : Number(rows[0]!.moved);
}
