import type pg from "pg";
import { onchainSchemaIdent } from "./onchainSchemaIdent.js";
import { groupByRequest } from "./groupByRequest.js";
import type { Queryable } from "./queryable.js";
import { storedAddress } from "./storedAddress.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

export type RefundStatus = "queued" | "sent" | "confirmed" | "unrefundable" | "manual" | "settled";

export type Refund = {
  id: string;
  requestId: string;
  depositChainId: number;
  depositTxHash: string;
  depositPosition: FactPosition;
  reason: string;
  refundsRequest: boolean;
  chainId: number;
  currency: string;
  deposited: bigint;
  recipient: string;
  status: RefundStatus;
  amount: bigint | null;
  nonce: number | null;
  txHash: string | null;
  rawTx: string | null;
};

export type NewRefund = {
  requestId: string;
  deposit: { chainId: number; txHash: string; position: FactPosition; currency: string; amount: bigint };
  reason: string;
  refundsRequest: boolean;
  recipient: string;
};

/** Queues the refund of one deposit; the id, or undefined when that deposit already has a refund. */
export async function queueRefund(db: Queryable, refund: NewRefund): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO crossfill.refunds (request_id, deposit_chain_id, deposit_tx_hash, deposit_log_index, reason, refunds_request,
       chain_id, currency, deposited, recipient)
     VALUES ($1, $2, $3, $4, $5, $6, $2, $7, $8, $9)
     ON CONFLICT (deposit_chain_id, deposit_tx_hash, deposit_log_index) DO NOTHING RETURNING id`,
    [
      refund.requestId,
      refund.deposit.chainId,
      refund.deposit.txHash,
      refund.deposit.position,
      refund.reason,
      refund.refundsRequest,
      storedAddress(refund.deposit.currency),
      refund.deposit.amount.toString(),
      storedAddress(refund.recipient),
    ],
  );
  return rows[0]?.id;
}

type RefundRow = {
  id: string;
  request_id: string;
  deposit_chain_id: string;
  deposit_tx_hash: string;
  deposit_log_index: string;
  reason: string;
  refunds_request: boolean;
  chain_id: string;
  currency: string;
  deposited: string;
  recipient: string;
  status: RefundStatus;
  amount: string | null;
  nonce: string | null;
  tx_hash: string | null;
  raw_tx: string | null;
};

function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    requestId: row.request_id,
    depositChainId: Number(row.deposit_chain_id),
    depositTxHash: row.deposit_tx_hash,
    depositPosition: factPosition(row.deposit_log_index),
    reason: row.reason,
    refundsRequest: row.refunds_request,
    chainId: Number(row.chain_id),
    currency: row.currency,
    deposited: BigInt(row.deposited),
    recipient: row.recipient,
    status: row.status,
    amount: row.amount === null ? null : BigInt(row.amount),
    nonce: row.nonce === null ? null : Number(row.nonce),
    txHash: row.tx_hash,
    rawTx: row.raw_tx,
  };
}

export async function getRefund(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Refund | undefined> {
  const { rows } = await db.query<RefundRow>(
    `SELECT * FROM crossfill.refunds WHERE id = $1${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id],
  );
  return rows[0] && toRefund(rows[0]);
}

export async function markRefundSent(
  db: pg.PoolClient,
  id: string,
  sent: { amount: bigint; gasCost: bigint; nonce: number | null; txHash: string; rawTx: string },
): Promise<void> {
  await db.query(
    `UPDATE crossfill.refunds SET status = 'sent', amount = $2, gas_cost = $3, nonce = $4, tx_hash = $5, raw_tx = $6, updated_at = now()
      WHERE id = $1 AND status = 'queued'`,
    [id, sent.amount.toString(), sent.gasCost.toString(), sent.nonce, sent.txHash, sent.rawTx],
  );
}

/**
 * Stores the re-signed version of a sent refund in place of `replaced` (whose transaction expired unlanded: it can
 * never land) before it is sent; false when the refund no longer stands at `replaced` (another run replaced it first).
 */
export async function replaceSentRefund(
  db: Queryable,
  id: string,
  replaced: string,
  next: { txHash: string; rawTx: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.refunds SET tx_hash = $3, raw_tx = $4, updated_at = now()
      WHERE id = $1 AND status = 'sent' AND tx_hash = $2`,
    [id, replaced, next.txHash, next.rawTx],
  );
  return result.rowCount === 1;
}

/**
 * Forgets a refund not yet signed whose deposit was reorged out: nothing arrived, so nothing is paid back. The
 * deposit's key is free again, so the same payment mined anew is refunded once as a new deposit. False when it was
 * signed meanwhile.
 */
export async function dropQueuedRefund(db: Queryable, id: string): Promise<boolean> {
  const result = await db.query("DELETE FROM crossfill.refunds WHERE id = $1 AND status = 'queued'", [id]);
  return result.rowCount === 1;
}

/**
 * The refunds of a request's own deposit (not of duplicate deposits), row-locked: a refund job signs under the same
 * lock, so what is `queued` here stays unsigned until the caller commits.
 */
export async function lockRequestRefunds(db: Queryable, requestId: string): Promise<Refund[]> {
  const { rows } = await db.query<RefundRow>(
    "SELECT * FROM crossfill.refunds WHERE request_id = $1 AND refunds_request ORDER BY id FOR UPDATE",
    [requestId],
  );
  return rows.map(toRefund);
}

/** Follows a refund's deposit to its position in the block a reorg mined it again in. */
export async function moveRefundDeposit(db: Queryable, id: string, position: FactPosition): Promise<void> {
  await db.query("UPDATE crossfill.refunds SET deposit_log_index = $2, updated_at = now() WHERE id = $1", [
    id,
    position,
  ]);
}

/** A refund that will not be paid automatically: too small for its gas, or refused on-chain. */
export async function markRefundStuck(
  db: Queryable,
  id: string,
  status: "unrefundable" | "manual",
  refundFailReason: string,
  note: string,
): Promise<void> {
  await db.query(
    `UPDATE crossfill.refunds SET status = $2, refund_fail_reason = $3, note = $4, updated_at = now() WHERE id = $1 AND status IN ('queued', 'sent')`,
    [id, status, refundFailReason, note],
  );
}

/** An operator paid it by hand: recorded with the transaction they give. */
export async function markRefundSettled(db: Queryable, id: string, txHash: string, note: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.refunds SET status = 'settled', tx_hash = $2, note = $3, updated_at = now() WHERE id = $1 AND status IN ('manual', 'unrefundable')`,
    [id, txHash, note],
  );
  return result.rowCount === 1;
}

/**
 * Sent refunds whose Withdrawal an indexer (Ponder or a poller) has seen; also `manual` ones that keep the withdrawal
 * they sent (it reverted) when a reorg mined it again, successfully: they are paid, and must not be paid again.
 */
export async function findIndexedRefunds(db: Queryable, onchainSchema: string): Promise<Refund[]> {
  const { rows } = await db.query<RefundRow>(
    `SELECT r.* FROM crossfill.refunds r
      WHERE r.status IN ('sent', 'manual') AND r.tx_hash IS NOT NULL
        AND (EXISTS (SELECT 1 FROM ${onchainSchemaIdent(onchainSchema)}.withdrawal w WHERE w.chain_id = r.chain_id AND w.tx_hash = r.tx_hash)
          OR EXISTS (SELECT 1 FROM crossfill.withdrawal_facts w WHERE w.chain_id = r.chain_id AND w.tx_hash = r.tx_hash))`,
  );
  return rows.map(toRefund);
}

export async function markRefundConfirmed(db: pg.PoolClient, id: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.refunds SET status = 'confirmed', refund_fail_reason = NULL, updated_at = now()
      WHERE id = $1 AND status IN ('sent', 'manual') AND tx_hash IS NOT NULL`,
    [id],
  );
  return result.rowCount === 1;
}

/** Refunds waiting for their job: queued ones, and sent ones to re-send until they are indexed. */
export async function findOpenRefunds(db: Queryable, olderThanMs: number, limit = 200): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM crossfill.refunds WHERE status IN ('queued', 'sent') AND updated_at < now() - make_interval(secs => $1 / 1000.0)
      ORDER BY id LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((row) => row.id);
}

/** A refund as its request's history shows it: what it returned, what its gas cost the deposit, and why not. */
export type RequestRefund = Refund & {
  gasCost: bigint | null;
  refundFailReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The refunds of many requests in one query, one list per id in the order given, oldest first. */
export async function refundsOfRequests(db: Queryable, requestIds: readonly string[]): Promise<RequestRefund[][]> {
  const { rows } = await db.query<
    RefundRow & { gas_cost: string | null; refund_fail_reason: string | null; created_at: Date; updated_at: Date }
  >("SELECT * FROM crossfill.refunds WHERE request_id = ANY($1) ORDER BY id", [requestIds]);
  return groupByRequest(
    requestIds,
    rows.map((row) => ({
      ...toRefund(row),
      gasCost: row.gas_cost === null ? null : BigInt(row.gas_cost),
      refundFailReason: row.refund_fail_reason,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
  );
}

/** Refunds an operator should look at: not paid automatically, or not yet confirmed. */
export async function listRefundsByStatus(
  db: Queryable,
  statuses: readonly RefundStatus[],
): Promise<Array<Refund & { refundFailReason: string | null; note: string | null }>> {
  const { rows } = await db.query<RefundRow & { refund_fail_reason: string | null; note: string | null }>(
    "SELECT * FROM crossfill.refunds WHERE status = ANY($1) ORDER BY id",
    [statuses],
  );
  return rows.map((row) => ({ ...toRefund(row), refundFailReason: row.refund_fail_reason, note: row.note }));
}

/** Puts a stuck refund back in the queue, optionally to another recipient (one that can receive it). */
export async function requeueRefund(db: Queryable, id: string, recipient?: string): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `WITH requeued AS (
       UPDATE crossfill.refunds SET status = 'queued', recipient = COALESCE($2, recipient), refund_fail_reason = NULL, note = NULL,
              amount = NULL, gas_cost = NULL, nonce = NULL, tx_hash = NULL, raw_tx = NULL, updated_at = now()
        WHERE id = $1 AND status IN ('manual', 'unrefundable')
        RETURNING request_id, refunds_request),
     cleared AS (
       UPDATE crossfill.requests r SET refund_fail_reason = NULL, updated_at = now()
         FROM requeued WHERE r.id = requeued.request_id AND requeued.refunds_request)
     SELECT count(*)::int AS n FROM requeued`,
    [id, recipient === undefined ? null : storedAddress(recipient)],
  );
  return rows[0].n === 1;
}
