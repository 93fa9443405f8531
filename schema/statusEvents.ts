import type { RequestStatus } from "../src/domain/requestStatus.js";
import { groupByRequest } from "./groupByRequest.js";
import type { Queryable } from "./queryable.js";
import { inTxHashesSql, outTxHashesSql } from "./requestTxHashes.js";

/** One status_events row with what the `request.status.updated` body needs from its request. */
export type OutboxEvent = {
  id: bigint;
  requestId: string;
  /** The status it left (null for a new request): the metrics count the move. */
  fromStatus: RequestStatus | null;
  status: RequestStatus;
  failReason: string | null;
  refundFailReason: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
  originChainId: number;
  destinationChainId: number;
  referrer: string | null;
  user: string;
  recipient: string;
  apiKeyId: string | null;
  /** The integrator of that key: who may see the referrer on public channels. */
  apiKeyIntegrator: string | null;
  requestFailReason: string | null;
  requestRefundFailReason: string | null;
  inTxHashes: string[];
  txHashes: string[];
  /** The request's deposit address (a child's parent's) with its first deposit's payer and hash; null without one. */
  depositAddress: {
    address: string;
    type: "open" | "strict";
    depositor: string | null;
    depositTxHash: string | null;
  } | null;
  /** The block time (seconds) of the request's first deposit still on its chain, null before any: deposit latency. */
  depositedAt: number | null;
};

/** The reading transaction's snapshot: xmin = oldest running transaction, xmax = first xid not yet assigned. */
export type Snapshot = { xmin: bigint; xmax: bigint };

/**
 * Outbox events with ids above `afterId`, in id order, and the snapshot they were read in (one statement,
 * so "every transaction running when a gap was seen has ended" can be decided against the same view).
 */
export async function readOutboxAfter(
  db: Queryable,
  afterId: bigint,
  limit: number,
): Promise<{ events: OutboxEvent[]; snapshot: Snapshot }> {
  const { rows } = await db.query(
    `WITH snap AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, pg_snapshot_xmax(pg_current_snapshot())::text AS xmax)
     SELECT snap.xmin, snap.xmax, ev.*
       FROM snap LEFT JOIN LATERAL (
         SELECT e.id::text AS id, e.request_id, e.from_status, e.to_status, e.fail_reason, e.refund_fail_reason, e.details, e.created_at,
                r.origin_chain_id, r.destination_chain_id, r.referrer, r.user_address, r.recipient, r.api_key_id,
                k.integrator AS api_key_integrator, r.fail_reason AS request_fail_reason, r.refund_fail_reason AS request_refund_fail_reason,
                ${inTxHashesSql("r")} AS in_tx_hashes,
                ${outTxHashesSql("r")} AS out_tx_hashes,
                (SELECT json_build_object('address', da.address, 'type', da.type, 'depositor', fd.depositor, 'depositTxHash', fd.tx_hash)
                   FROM crossfill.request_deposit_addresses da
                   LEFT JOIN LATERAL (SELECT d.depositor, d.tx_hash FROM crossfill.request_deposits d
                                       WHERE d.request_id = r.id AND d.chain_id = r.origin_chain_id AND d.reorg IS NULL
                                       ORDER BY d.timestamp, d.block_number, d.log_index LIMIT 1) fd ON true
                  WHERE da.request_id = coalesce(r.parent_request_id, r.id)) AS deposit_address,
                (SELECT min(d.timestamp) FROM crossfill.request_deposits d
                  WHERE d.request_id = r.id AND d.reorg IS NULL)::text AS deposited_at
           FROM crossfill.status_events e JOIN crossfill.requests r ON r.id = e.request_id
                LEFT JOIN crossfill.api_keys k ON k.id = r.api_key_id
          WHERE e.id > $1
          ORDER BY e.id
          LIMIT $2) ev ON true`,
    [afterId.toString(), limit],
  );
  const snapshot = { xmin: BigInt(rows[0].xmin), xmax: BigInt(rows[0].xmax) };
  const events = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: BigInt(row.id),
      requestId: row.request_id,
      fromStatus: row.from_status,
      status: row.to_status,
      failReason: row.fail_reason,
      refundFailReason: row.refund_fail_reason,
      details: row.details,
      createdAt: row.created_at,
      originChainId: Number(row.origin_chain_id),
      destinationChainId: Number(row.destination_chain_id),
      referrer: row.referrer,
      user: row.user_address,
      recipient: row.recipient,
      apiKeyId: row.api_key_id,
      apiKeyIntegrator: row.api_key_integrator,
      requestFailReason: row.request_fail_reason,
      requestRefundFailReason: row.request_refund_fail_reason,
      inTxHashes: row.in_tx_hashes,
      txHashes: row.out_tx_hashes,
      depositAddress: row.deposit_address,
      depositedAt: row.deposited_at === null ? null : Number(row.deposited_at),
    }));
  return { events, snapshot };
}

/** The highest committed outbox id (0 when empty): one index probe, for the notifier's idle check. */
export async function outboxHead(db: Queryable): Promise<bigint> {
  const { rows } = await db.query("SELECT COALESCE(max(id), 0)::text AS head FROM crossfill.status_events");
  return BigInt(rows[0].head);
}

/** A request's timeline entry, as GraphQL's StatusEvent shows it. */
export type StatusEventRecord = {
  id: string;
  requestId: string;
  fromStatus: RequestStatus | null;
  toStatus: RequestStatus;
  failReason: string | null;
  refundFailReason: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
};

/** The timelines of many requests in one query: one list per id in the order given, each in write order. */
export async function statusEventsOfRequests(
  db: Queryable,
  requestIds: readonly string[],
): Promise<StatusEventRecord[][]> {
  const { rows } = await db.query(
    `SELECT id::text AS id, request_id, from_status, to_status, fail_reason, refund_fail_reason, details, created_at
       FROM crossfill.status_events WHERE request_id = ANY($1) ORDER BY status_events.id`,
    [requestIds],
  );
  return groupByRequest(
    requestIds,
    rows.map((row) => ({
      id: row.id,
      requestId: row.request_id,
      fromStatus: row.from_status,
      toStatus: row.to_status,
      failReason: row.fail_reason,
      refundFailReason: row.refund_fail_reason,
      details: row.details,
      createdAt: row.created_at,
    })),
  );
}
