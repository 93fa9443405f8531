import type { Queryable } from "./queryable.js";

/** The refund statuses that still need something: the worker's next attempt, the chain, or an operator. */
export const OPEN_REFUND_STATUSES = ["queued", "sent", "manual", "unrefundable"] as const;
export type OpenRefundStatus = (typeof OPEN_REFUND_STATUSES)[number];

/** How many refunds are in each open status (every open status present, zero when none). */
export async function openRefundCounts(db: Queryable): Promise<Record<OpenRefundStatus, number>> {
  const { rows } = await db.query(
    `SELECT status, count(*)::int AS n FROM crossfill.refunds
      WHERE status IN ('queued', 'sent', 'manual', 'unrefundable') GROUP BY status`,
  );
  const counts = Object.fromEntries(OPEN_REFUND_STATUSES.map((status) => [status, 0])) as Record<
    OpenRefundStatus,
    number
  >;
  for (const row of rows) counts[row.status as OpenRefundStatus] = row.n;
  return counts;
}
