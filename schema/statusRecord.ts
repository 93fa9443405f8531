import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { Queryable } from "./queryable.js";
import { inTxHashesSql, outTxHashesSql } from "./requestTxHashes.js";

export type StatusRecord = {
  status: RequestStatus;
  inTxHashes: string[];
  txHashes: string[];
  updatedAt: Date;
  originChainId: number;
  destinationChainId: number;
  failReason: string | null;
  refundFailReason: string | null;
  /** What the failure recorded (a decoded revert, the refused transfer…), null when the request has not failed. */
  failureDetails: Record<string, unknown> | null;
  /** The newest status_events id of the request (0 when none): how new this record is, next to pushed updates. */
  lastEventId: bigint;
};

/** What GET /intents/status/v3 reports, in one query. */
export async function getStatusRecord(db: Queryable, requestId: string): Promise<StatusRecord | undefined> {
  const { rows } = await db.query<{
    status: RequestStatus;
    updated_at: Date;
    origin_chain_id: string;
    destination_chain_id: string;
    fail_reason: string | null;
    refund_fail_reason: string | null;
    in_tx_hashes: string[];
    out_tx_hashes: string[];
    failure_details: Record<string, unknown> | null;
    last_event_id: string;
  }>(
    `SELECT r.status, r.updated_at, r.origin_chain_id, r.destination_chain_id, r.fail_reason, r.refund_fail_reason,
            ${inTxHashesSql("r")} AS in_tx_hashes,
            ${outTxHashesSql("r")} AS out_tx_hashes,
            (SELECT e.details FROM crossfill.status_events e WHERE e.request_id = r.id AND e.to_status = 'failure'
              ORDER BY e.id DESC LIMIT 1) AS failure_details,
            (SELECT coalesce(max(e.id), 0) FROM crossfill.status_events e WHERE e.request_id = r.id) AS last_event_id
       FROM crossfill.requests r WHERE r.id = $1`,
    [requestId],
  );
  const row = rows[0];
  return (
    row && {
      status: row.status,
      inTxHashes: row.in_tx_hashes,
      txHashes: row.out_tx_hashes,
      updatedAt: row.updated_at,
      originChainId: Number(row.origin_chain_id),
      destinationChainId: Number(row.destination_chain_id),
      failReason: row.fail_reason,
      refundFailReason: row.refund_fail_reason,
      failureDetails: row.failure_details,
      lastEventId: BigInt(row.last_event_id),
    }
  );
}
