import type { Queryable } from "./requests.js";

/** Counts one hit in a window and returns the window's total so far. */
export async function hitRateLimitWindow(db: Queryable, key: string, windowStart: number): Promise<number> {
  const { rows } = await db.query<{ hits: number }>(
    `INSERT INTO crossfill.rate_limit_windows (key, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET hits = crossfill.rate_limit_windows.hits + 1
     RETURNING hits`,
    [key, windowStart],
  );
  return rows[0].hits;
}

/** Drops windows that ended before `before` (unix seconds). */
export async function pruneRateLimitWindows(db: Queryable, before: number): Promise<void> {
  await db.query("DELETE FROM crossfill.rate_limit_windows WHERE window_start < $1", [before]);
}
