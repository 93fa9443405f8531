import type { Queryable } from "./queryable.js";

/**
 * Folds the listing counts' pending changes (migration 0150) into their per-day projections: the worker's stats
 * tick calls it, so an `includeTotal` adds up only the changes since the last tick. Answers how many change rows it
 * moved, or null when another fold was running (it skips rather than waits).
 */
export async function foldRequestCountChanges(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ moved: string | null }>("SELECT crossfill.fold_request_count_changes() AS moved");
  return rows[0]!.moved === null ? null : Number(rows[0]!.moved);
}
