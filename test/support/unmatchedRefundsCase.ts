import { expect } from "vitest";
import type { TestStack } from "./startTestStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A payment to the depository that names no request. */
export type UnmatchedPayment = {
  txHash: string;
  /** Who paid it, as the family spells an address: the refund's recipient. */
  payer: string;
  currency?: string;
  amount: bigint;
  /** The order its memo names ("" when it names none or a malformed one). */
  orderId: string;
  /** False for one too small to pay back once the refund's fee is taken. */
  refundable: boolean;
};

/** An unmatched refund as crossfill.unmatched_refunds holds it. */
export type UnmatchedRefundRow = {
  deposit_tx_hash: string;
  order_id: string;
  recipient: string;
  currency: string;
  status: string;
  amount: string | null;
  fee: string | null;
  tx_hash: string | null;
  refund_fail_reason: string | null;
};

/** What differs between the families' unmatched refunds: how to pay, how their chains move past the rule. */
export type UnmatchedRefundFamily = {
  stack: () => TestStack;
  /** Pays the depository payments naming no request, refundable and not. */
  pay(): Promise<UnmatchedPayment[]>;
  /** Moves the chain until the payments are recorded as deposit facts (mines their block, or nothing). */
  record(): Promise<void>;
  /** Moves the chain one block or slot short of the refund rule, and how long to watch nothing be refunded. */
  shortOfRule(): Promise<void>;
  watchMs: number;
  /** Moves the chain past the rule (a block, or nothing where time moves it). */
  pastRule(): Promise<void>;
  /** Moves the chain so the sent refunds confirm (a block, or nothing). */
  confirmSent(): Promise<void>;
  /** What the payer is out of the payment's currency since before `pay`, the payment's own network fee left out. */
  payerLoss(payment: UnmatchedPayment): Promise<bigint>;
  /** The family's own checks of a sent refund on its chain (what it spends, where it landed, its fee). */
  checkRefund(row: UnmatchedRefundRow, payment: UnmatchedPayment): Promise<void>;
  /** How long to wait for the refunds, and to let a second payout show before the balances are read. */
  timeoutMs: number;
  quietMs: number;
};

/**
 * Deposits to the depository that name no request, end to end, on any family: recorded, never refunded before the
 * family's rule, then each refundable one paid back to its payer once, less the refund's fee, and one too small kept
 * as unrefundable; the payers are out exactly the fees, and no deposit is applied to a request.
 */
export async function unmatchedRefundsCase(family: UnmatchedRefundFamily): Promise<void> {
  const pool = family.stack().pool;
  const payments = await family.pay();
  const txHashes = payments.map((payment) => payment.txHash);
  const unmatched = async () =>
    (
      await pool.query<UnmatchedRefundRow>(
        `SELECT deposit_tx_hash, order_id, recipient, currency, status, amount, fee, tx_hash, refund_fail_reason
           FROM crossfill.unmatched_refunds WHERE deposit_tx_hash = ANY($1)`,
        [txHashes],
      )
    ).rows;
  const statuses = async () => (await unmatched()).map((row) => row.status).sort();
  const poll = { timeout: family.timeoutMs, interval: 200 };

  await family.record();
  await expect
    .poll(
      async () =>
        Number(
          (
            await pool.query(
              "SELECT count(*) FROM crossfill.deposit_facts WHERE tx_hash = ANY($1) AND block_hash <> ''",
              [txHashes],
            )
          ).rows[0].count,
        ),
      poll,
    )
    .toBe(payments.length);
  // Short of the rule: nothing is refunded, however long the worker looks.
  await family.shortOfRule();
  await sleep(family.watchMs);
  expect(await unmatched()).toEqual([]);

  await family.pastRule();
  const refundable = payments.filter((payment) => payment.refundable);
  const kept = payments.filter((payment) => !payment.refundable);
  await expect
    .poll(async () => (await unmatched()).filter((row) => row.tx_hash !== null).length, poll)
    .toBe(refundable.length);
  await family.confirmSent();
  await expect
    .poll(statuses, poll)
    .toEqual([...refundable.map(() => "confirmed"), ...kept.map(() => "unrefundable")].sort());

  const rows = new Map((await unmatched()).map((row) => [row.deposit_tx_hash, row]));
  // Nothing is paid twice: a while later every balance is still exact.
  await sleep(family.quietMs);
  for (const payment of payments) {
    const row = rows.get(payment.txHash)!;
    expect(row).toMatchObject({
      order_id: payment.orderId,
      recipient: payment.payer,
      ...(payment.currency === undefined ? {} : { currency: payment.currency }),
    });
    if (!payment.refundable) {
      expect(row).toMatchObject({ refund_fail_reason: "AMOUNT_TOO_LOW_TO_REFUND", tx_hash: null });
      // Kept by the depository: its payer is out the payment.
      expect(await family.payerLoss(payment)).toBe(payment.amount);
      continue;
    }
    // The deposit less the refund's own fee, paid back once: the payer is out the fee alone.
    expect(BigInt(row.fee!)).toBeGreaterThan(0n);
    expect(BigInt(row.amount!) + BigInt(row.fee!)).toBe(payment.amount);
    expect(await family.payerLoss(payment)).toBe(BigInt(row.fee!));
    await family.checkRefund(row, payment);
  }
  // Refunded deposits are never applied to a request.
  const applied = await pool.query("SELECT count(*) FROM crossfill.request_deposits WHERE tx_hash = ANY($1)", [
    txHashes,
  ]);
  expect(Number(applied.rows[0].count)).toBe(0);
}
