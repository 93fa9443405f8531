import type pg from "pg";
import type { FailReason, RefundFailReason } from "../src/domain/failReasons.js";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import { REQUEST_STATUSES, type RequestStatus, canTransition } from "../src/domain/requestStatus.js";

export type Transition = {
  requestId: string;
  to: RequestStatus;
  /** Apply only from these statuses (the state machine still has the last word). */
  from?: readonly RequestStatus[];
  failReason?: FailReason;
  refundFailReason?: RefundFailReason;
  details?: Record<string, unknown>;
  /** The fill transaction that failed, kept on the request for its record. */
  failedTransaction?: FailedTransaction;
  /** What the applied deposit entitles the recipient to, recorded with the move to `pending`. */
  fillAmount?: bigint;
};

export type TransitionResult =
  { applied: true; from: RequestStatus; eventId: string } | { applied: false; current: RequestStatus | undefined };

/** The statuses a request may make `transition` from: the state machine's, narrowed to `from` when given. */
const allowedFrom = (transition: Transition) =>
  REQUEST_STATUSES.filter(
    (status) => canTransition(status, transition.to) && (!transition.from || transition.from.includes(status)),
  );

/**
 * The one way a request's status changes: checked against the state machine under a row lock, and written
 * together with its status_events row (the outbox) in the caller's transaction. A failed or refunded request
 * always has a fail reason (UNKNOWN when none was given), so listings filter on what its record shows.
 *
 * One statement (lock, update, outbox row): it runs in the transactions clients wait on (a deposit's `pending`), where
 * each round trip to Postgres costs milliseconds on a busy machine.
 */
export async function transitionRequest(client: pg.PoolClient, transition: Transition): Promise<TransitionResult> {
  const { rows } = await client.query<{ current: RequestStatus; event_id: string | null }>(
    `WITH locked AS (SELECT status FROM crossfill.requests WHERE id = $1 FOR UPDATE),
          moved AS (
            UPDATE crossfill.requests
               SET status = $2, updated_at = now(),
                   fail_reason = CASE WHEN $2 IN ('failure', 'refund') THEN COALESCE($3, fail_reason, 'UNKNOWN') ELSE COALESCE($3, fail_reason) END,
                   refund_fail_reason = COALESCE($4, refund_fail_reason),
                   failed_tx_hash = CASE WHEN $7::jsonb IS NULL THEN failed_tx_hash ELSE $5 END,
                   failed_tx_block_number = CASE WHEN $7::jsonb IS NULL THEN failed_tx_block_number ELSE $6::bigint END,
                   failed_tx_timestamp = CASE WHEN $7::jsonb IS NULL THEN failed_tx_timestamp ELSE $8::bigint END,
                   failed_tx_fee = CASE WHEN $7::jsonb IS NULL THEN failed_tx_fee ELSE $9::numeric END,
                   failed_call_data = COALESCE($7::jsonb, failed_call_data),
                   fill_amount = COALESCE($12::numeric, fill_amount)
             WHERE id = $1 AND (SELECT status FROM locked) = ANY($11::text[])
            RETURNING id),
          event AS (
            INSERT INTO crossfill.status_events (request_id, from_status, to_status, fail_reason, refund_fail_reason, details)
            SELECT id, (SELECT status FROM locked), $2, $3, $4, $10 FROM moved
            RETURNING id)
     SELECT status AS current, (SELECT id::text FROM event) AS event_id FROM locked`,
    [
      transition.requestId,
      transition.to,
      transition.failReason ?? null,
      transition.refundFailReason ?? null,
      transition.failedTransaction?.txHash ?? null,
      transition.failedTransaction?.blockNumber?.toString() ?? null,
      transition.failedTransaction ? JSON.stringify(transition.failedTransaction.call) : null,
      transition.failedTransaction?.timestamp?.toString() ?? null,
      transition.failedTransaction?.fee?.toString() ?? null,
      transition.details ? JSON.stringify(transition.details) : null,
      allowedFrom(transition),
      transition.fillAmount?.toString() ?? null,
    ],
  );
  const row = rows[0];
  if (!row) return { applied: false, current: undefined };
  if (row.event_id === null) return { applied: false, current: row.current };
  return { applied: true, from: row.current, eventId: row.event_id };
}
