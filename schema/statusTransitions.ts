import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { Queryable } from "./queryable.js";

/** A status_events row as the metrics count it: the move, its chain pair and when the request's deposit landed. */
export type StatusTransition = {
  id: bigint;
  from: RequestStatus | null;
  to: RequestStatus;
  /** The event's fail reason, or the request's for a move to failure or refund that names none. */
  failReason: string | null;
  originChainId: number;
  destinationChainId: number;
  /** The block time (seconds) of the request's first deposit still on its chain; null before any. */
  depositedAt: number | null;
  createdAt: Date;
};

/** The transitions of these outbox ids (one query by primary key, whatever their order). */
export async function readStatusTransitions(db: Queryable, ids: readonly bigint[]): Promise<StatusTransition[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query(
    `SELECT e.id::text, e.from_status, e.to_status, e.created_at,
            -- a refund's event names no reason of its own: the request's failure is what it was refunded for
            coalesce(e.fail_reason, CASE WHEN e.to_status IN ('failure', 'refund') THEN r.fail_reason END) AS fail_reason,
            r.origin_chain_id, r.destination_chain_id,
            (SELECT min(d.timestamp) FROM crossfill.request_deposits d
              WHERE d.request_id = r.id AND d.reorg IS NULL)::text AS deposited_at
       FROM crossfill.status_events e JOIN crossfill.requests r ON r.id = e.request_id
      WHERE e.id = ANY($1::bigint[])
      ORDER BY e.id`,
    [ids.map(String)],
  );
  return rows.map((row) => ({
    id: BigInt(row.id),
    from: row.from_status,
    to: row.to_status,
    failReason: row.fail_reason,
    originChainId: Number(row.origin_chain_id),
    destinationChainId: Number(row.destination_chain_id),
    depositedAt: row.deposited_at === null ? null : Number(row.deposited_at),
    createdAt: row.created_at,
  }));
}
