import type { Queryable } from "./queryable.js";

/**
 * Stores the cancellation of a Bitcoin payout (a self-spend of its inputs) before it is broadcast: only for a request
 * whose fill is unresolved (`pending`, `submitted`) and that has none yet. False otherwise: another run stored one
 * first, or the request is settled — a `success` whose payout a reorg dropped is broadcast again, never cancelled.
 */
export async function recordPayoutCancel(
  db: Queryable,
  requestId: string,
  cancel: { txHash: string; rawTx: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.fill_attempts a SET cancel_tx_hash = $2, cancel_raw_tx = $3, sent_at = now()
      FROM crossfill.requests r
     WHERE a.request_id = $1 AND r.id = a.request_id AND a.cancel_tx_hash IS NULL
       AND r.status IN ('pending', 'submitted')`,
    [requestId, cancel.txHash, cancel.rawTx],
  );
  return result.rowCount === 1;
}
