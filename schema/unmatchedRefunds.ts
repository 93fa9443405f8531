import type pg from "pg";
import { MEMPOOL_BLOCK_HASH } from "./chainFacts.js";
import type { AppliedDeposit } from "../src/chains/chainFacts.js";
import type { Queryable } from "./queryable.js";
import { depositOrderSql } from "./unappliedFacts.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

export type UnmatchedRefundStatus = "queued" | "sent" | "confirmed" | "unrefundable" | "manual";

/** Which output of which transaction on which chain a deposit is. */
export type DepositOutpoint = { chainId: number; txHash: string; position: FactPosition };

/** The refund of one deposit to the depository that named no request (schema/migrations/0160). */
export type UnmatchedRefund = DepositOutpoint & {
  orderId: string;
  recipient: string;
  /** What the deposit paid, and the refund pays back (null only on a row queued before 0400 whose fact is gone). */
  currency: string | null;
  deposited: bigint;
  status: UnmatchedRefundStatus;
  amount: bigint | null;
  fee: bigint | null;
  refundTxHash: string | null;
  rawTx: string | null;
  refundFailReason: string | null;
  note: string | null;
  createdAt: Date;
};

/** After how many confirmations a chain's unmatched deposits are refunded. */
export type UnmatchedRefundRule = { chainId: number; afterBlocks: number };

type Row = {
  chain_id: string;
  deposit_tx_hash: string;
  deposit_log_index: string;
  order_id: string;
  recipient: string;
  currency: string | null;
  deposited: string;
  status: UnmatchedRefundStatus;
  amount: string | null;
  fee: string | null;
  tx_hash: string | null;
  raw_tx: string | null;
  refund_fail_reason: string | null;
  note: string | null;
  created_at: Date;
};

const toRefund = (row: Row): UnmatchedRefund => ({
  chainId: Number(row.chain_id),
  txHash: row.deposit_tx_hash,
  position: factPosition(row.deposit_log_index),
  orderId: row.order_id,
  recipient: row.recipient,
  currency: row.currency,
  deposited: BigInt(row.deposited),
  status: row.status,
  amount: row.amount === null ? null : BigInt(row.amount),
  fee: row.fee === null ? null : BigInt(row.fee),
  refundTxHash: row.tx_hash,
  rawTx: row.raw_tx,
  refundFailReason: row.refund_fail_reason,
  note: row.note,
  createdAt: row.created_at,
});

/**
 * Queues the refund of every mined deposit fact on a ruled chain that no request has (its order id, `NO_ORDER`
 * included, names none; it was never applied; no request refund spends it) once it has `afterBlocks` confirmations
 * counted to the poller's newest processed block. Returns the refunds queued now; a deposit queued before is skipped.
 */
export async function queueUnmatchedRefunds(
  db: Queryable,
  rules: readonly UnmatchedRefundRule[],
): Promise<UnmatchedRefund[]> {
  if (rules.length === 0) return [];
  const { rows } = await db.query<Row>(
    `INSERT INTO crossfill.unmatched_refunds (chain_id, deposit_tx_hash, deposit_log_index, order_id, recipient, currency, deposited)
     SELECT d.chain_id, d.tx_hash, d.log_index, d.order_id, d.depositor, d.currency, d.amount
       FROM crossfill.deposit_facts d
       JOIN unnest($1::bigint[], $2::integer[]) AS rule (chain_id, after_blocks) ON rule.chain_id = d.chain_id
      WHERE d.block_hash <> $3
        AND (SELECT max(b.height) FROM crossfill.poller_blocks b WHERE b.chain_id = d.chain_id) - d.block_number + 1
            >= rule.after_blocks
        AND NOT EXISTS (SELECT 1 FROM crossfill.requests r WHERE r.order_id = ${depositOrderSql("d")})
        AND NOT EXISTS (SELECT 1 FROM crossfill.request_deposits a
                         WHERE a.chain_id = d.chain_id AND a.tx_hash = d.tx_hash AND a.log_index = d.log_index)
        AND NOT EXISTS (SELECT 1 FROM crossfill.refunds f
                         WHERE f.deposit_chain_id = d.chain_id AND f.deposit_tx_hash = d.tx_hash
                           AND f.deposit_log_index = d.log_index)
     ON CONFLICT DO NOTHING
     RETURNING *`,
    [rules.map((rule) => rule.chainId), rules.map((rule) => rule.afterBlocks), MEMPOOL_BLOCK_HASH],
  );
  return rows.map(toRefund);
}

/**
 * Refunds the worker still has to send (`queued`), or to see mined (`sent`), untouched for `recheckAfterMs`
 * (a lost job, a crash between storing and broadcasting); queued ones first.
 */
export async function findOpenUnmatchedRefunds(
  db: Queryable,
  recheckAfterMs: number,
  limit = 100,
): Promise<DepositOutpoint[]> {
  const { rows } = await db.query<Pick<Row, "chain_id" | "deposit_tx_hash" | "deposit_log_index">>(
    `SELECT chain_id, deposit_tx_hash, deposit_log_index FROM crossfill.unmatched_refunds
      WHERE status IN ('queued', 'sent') AND updated_at < now() - make_interval(secs => $1 / 1000.0)
      ORDER BY status = 'sent', updated_at LIMIT $2`,
    [recheckAfterMs, limit],
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    txHash: row.deposit_tx_hash,
    position: factPosition(row.deposit_log_index),
  }));
}

const KEY = "chain_id = $1 AND deposit_tx_hash = $2 AND deposit_log_index = $3";
// The same outpoint in the fact tables.
const FACT_KEY = "chain_id = $1 AND tx_hash = $2 AND log_index = $3";
const keyOf = (deposit: DepositOutpoint) => [deposit.chainId, deposit.txHash, deposit.position];

export async function getUnmatchedRefund(
  db: Queryable,
  deposit: DepositOutpoint,
  options: { forUpdate?: boolean } = {},
): Promise<UnmatchedRefund | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM crossfill.unmatched_refunds WHERE ${KEY}${options.forUpdate ? " FOR UPDATE" : ""}`,
    keyOf(deposit),
  );
  return rows[0] && toRefund(rows[0]);
}

/** Unmatched refunds in these statuses (all when none is given), newest first: what operators list. */
export async function listUnmatchedRefunds(
  db: Queryable,
  statuses: readonly UnmatchedRefundStatus[] = [],
  limit = 1000,
): Promise<UnmatchedRefund[]> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM crossfill.unmatched_refunds WHERE cardinality($1::text[]) = 0 OR status = ANY($1::text[])
      ORDER BY created_at DESC, chain_id, deposit_tx_hash, deposit_log_index LIMIT $2`,
    [statuses, limit],
  );
  return rows.map(toRefund);
}

/** Stores the signed refund before it is broadcast; false when it was not `queued` any more. */
export async function markUnmatchedRefundSent(
  db: pg.PoolClient,
  deposit: DepositOutpoint,
  sent: { amount: bigint; fee: bigint; txHash: string; rawTx: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.unmatched_refunds SET status = 'sent', amount = $4, fee = $5, tx_hash = $6, raw_tx = $7, updated_at = now()
      WHERE ${KEY} AND status = 'queued'`,
    [...keyOf(deposit), sent.amount.toString(), sent.fee.toString(), sent.txHash, sent.rawTx],
  );
  return result.rowCount === 1;
}

/** Stores a sent refund's re-signed version in place of `replaced` (expired unlanded) before it is sent; false when another run replaced it first. */
export async function replaceSentUnmatchedRefund(
  db: Queryable,
  deposit: DepositOutpoint,
  replaced: string,
  next: { txHash: string; rawTx: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.unmatched_refunds SET tx_hash = $5, raw_tx = $6, updated_at = now()
      WHERE ${KEY} AND status = 'sent' AND tx_hash = $4`,
    [...keyOf(deposit), replaced, next.txHash, next.rawTx],
  );
  return result.rowCount === 1;
}

/** A sent refund seen mined. */
export async function markUnmatchedRefundConfirmed(db: Queryable, deposit: DepositOutpoint): Promise<void> {
  await db.query(
    `UPDATE crossfill.unmatched_refunds SET status = 'confirmed', updated_at = now() WHERE ${KEY} AND status = 'sent'`,
    keyOf(deposit),
  );
}

/**
 * Whether a sent refund's transaction is among the withdrawals a poller read (the exchange's depository transfers):
 * mined, as a chain without receipts (`transactionMined`) shows it.
 */
export async function unmatchedRefundIndexed(db: Queryable, deposit: DepositOutpoint): Promise<boolean> {
  const { rows } = await db.query<{ indexed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM crossfill.unmatched_refunds u JOIN crossfill.withdrawal_facts w
                     ON w.chain_id = u.chain_id AND w.tx_hash = u.tx_hash
                     WHERE u.chain_id = $1 AND u.deposit_tx_hash = $2 AND u.deposit_log_index = $3
                       AND u.status = 'sent') AS indexed`,
    keyOf(deposit),
  );
  return rows[0]!.indexed;
}

/** A sent refund looked at again (re-sent, not mined yet): the recheck waits its interval from now. */
export async function touchUnmatchedRefund(db: Queryable, deposit: DepositOutpoint): Promise<void> {
  await db.query(`UPDATE crossfill.unmatched_refunds SET updated_at = now() WHERE ${KEY}`, keyOf(deposit));
}

/** A queued refund the worker will not send: too small for its fee (`unrefundable`), or for an operator (`manual`). */
export async function markUnmatchedRefundStuck(
  db: Queryable,
  deposit: DepositOutpoint,
  status: "unrefundable" | "manual",
  refundFailReason: string,
  note: string,
): Promise<void> {
  await db.query(
    `UPDATE crossfill.unmatched_refunds SET status = $4, refund_fail_reason = $5, note = $6, updated_at = now()
      WHERE ${KEY} AND status = 'queued'`,
    [...keyOf(deposit), status, refundFailReason, note],
  );
}

/**
 * Why a queued refund must not be sent any more, or undefined: a request applied the deposit meanwhile (a late
 * match makes it the request's), or the deposit is no longer in a block (reorged out).
 */
export async function unmatchedRefundObstacle(db: Queryable, deposit: DepositOutpoint): Promise<string | undefined> {
  const { rows } = await db.query<{ applied: boolean; mined: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM crossfill.request_deposits WHERE ${FACT_KEY}) AS applied,
            EXISTS (SELECT 1 FROM crossfill.deposit_facts WHERE ${FACT_KEY} AND block_hash <> $4) AS mined`,
    [...keyOf(deposit), MEMPOOL_BLOCK_HASH],
  );
  if (rows[0]!.applied) return "a request applied the deposit";
  if (!rows[0]!.mined) return "the deposit is no longer in a block";
  return undefined;
}

/** The mined deposit fact an unmatched refund pays back; undefined once it is no longer in a block. */
export async function unmatchedDepositFact(
  db: Queryable,
  deposit: DepositOutpoint,
): Promise<AppliedDeposit | undefined> {
  const { rows } = await db.query<{
    block_hash: string;
    depositor: string;
    currency: string;
    amount: string;
    block_number: string;
  }>(
    `SELECT block_hash, depositor, currency, amount, block_number FROM crossfill.deposit_facts
      WHERE ${FACT_KEY} AND block_hash <> $4`,
    [...keyOf(deposit), MEMPOOL_BLOCK_HASH],
  );
  const row = rows[0];
  return (
    row && {
      ...deposit,
      blockHash: row.block_hash,
      depositor: row.depositor,
      currency: row.currency,
      amount: BigInt(row.amount),
      blockNumber: BigInt(row.block_number),
    }
  );
}

/** Forgets a queued refund that must not be sent (`unmatchedRefundObstacle`); the deposit is queued again if it qualifies. */
export async function dropQueuedUnmatchedRefund(db: Queryable, deposit: DepositOutpoint): Promise<void> {
  await db.query(`DELETE FROM crossfill.unmatched_refunds WHERE ${KEY} AND status = 'queued'`, keyOf(deposit));
}
