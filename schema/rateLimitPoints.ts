import type { Queryable } from "./queryable.js";

/** A count to add to one rate-limit counter; `expireMs` (epoch ms) is when its row may be deleted. */
export type RateLimitPointsAdd = { key: string; points: number; expireMs: number };

/**
 * Adds every count in one statement (one a gateway's event-loop turn) and answers each counter's new total, keyed
 * by its key. A row past its `expire` that the cleanup has not deleted yet starts afresh. The rows are locked in key
 * order, so two gateways adding to overlapping counters cannot deadlock. `keys` must be distinct.
 */
export async function addRateLimitPoints(
  db: Queryable,
  adds: readonly RateLimitPointsAdd[],
  nowMs: number,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ key: string; points: number }>({
    // Prepared once per connection: it runs on every turn with a rate-limited request.
    name: "crossfill-add-rate-limit-points",
    text: `INSERT INTO crossfill.rate_limit_points AS p (key, points, expire)
     SELECT key, points, expire FROM unnest($1::text[], $2::int[], $3::bigint[]) AS c(key, points, expire)
     ORDER BY key
     ON CONFLICT (key) DO UPDATE
       SET points = CASE WHEN p.expire <= $4 THEN excluded.points ELSE p.points + excluded.points END,
           expire = excluded.expire
     RETURNING key, points`,
    values: [adds.map((a) => a.key), adds.map((a) => a.points), adds.map((a) => a.expireMs), nowMs],
  });
  return new Map(rows.map((row) => [row.key, row.points]));
}

/** Deletes the counters of windows long over. */
export async function deleteExpiredRateLimitPoints(db: Queryable, nowMs: number): Promise<void> {
  await db.query("DELETE FROM crossfill.rate_limit_points WHERE expire <= $1", [nowMs]);
}
