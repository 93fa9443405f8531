import type pg from "pg";

/**
 * A request's status rows as the benchmarks read them: when it first reached a status (`created_at`, Postgres' clock,
 * epoch ms; null before), and the statuses it went through (a failed run's record).
 */
export function statusEvents(pool: pg.Pool) {
  return {
    async at(requestId: string, status: string): Promise<number | null> {
      const { rows } = await pool.query<{ ms: number }>(
        `SELECT (extract(epoch from created_at) * 1000)::float8 AS ms FROM crossfill.status_events
          WHERE request_id = $1 AND to_status = $2 ORDER BY id LIMIT 1`,
        [requestId, status],
      );
      return rows[0]?.ms ?? null;
    },
    async of(requestId: string): Promise<string[]> {
      const { rows } = await pool.query<{ to_status: string }>(
        "SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
        [requestId],
      );
      return rows.map((row) => row.to_status);
    },
  };
}
