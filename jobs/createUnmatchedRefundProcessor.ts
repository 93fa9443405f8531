import type pg from "pg";
import type { Logger } from "pino";
import {
  type DepositOutpoint,
  dropQueuedUnmatchedRefund,
  getUnmatchedRefund,
  markUnmatchedRefundConfirmed,
  markUnmatchedRefundSent,
  markUnmatchedRefundStuck,
  touchUnmatchedRefund,
  unmatchedRefundIndexed,
  unmatchedRefundObstacle,
} from "../schema/unmatchedRefunds.js";
import { fillLedgerIn } from "../schema/fillLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { SignedTransaction } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import { type PositionPayload, withPosition } from "./withPosition.js";
import { refundAmount } from "../src/domain/refundAmount.js";

export type UnmatchedRefundDeps = { pool: pg.Pool; adapters: ChainAdapters; logger: Logger };

/**
 * Pays one deposit that named no request (schema/unmatchedRefunds) back to its depositor from the depository, less
 * the refund's fee (the deposit's output is spent whole). The signed refund is stored before it is broadcast; a later
 * run re-sends the stored one until it is mined, then marks it confirmed. A deposit too small to pay its fee is kept
 * `unrefundable` (AMOUNT_TOO_LOW_TO_REFUND); one the chain will not let the worker spend (no depository key, spent
 * already) is `manual` (MANUAL_REFUND_REQUIRED). A deposit a request applied meanwhile, or reorged out, is left alone.
 */
export function createUnmatchedRefundProcessor(deps: UnmatchedRefundDeps) {
  const { pool, logger } = deps;
  return async function processUnmatchedRefund(job: { data: PositionPayload<DepositOutpoint> }): Promise<string> {
    const deposit = withPosition<DepositOutpoint>(job.data);
    const refund = await getUnmatchedRefund(pool, deposit);
    if (!refund) return "skipped: unknown";
    const refunder = deps.adapters.refunder(refund.chainId);
    if (refund.status === "sent") {
      const signed = { rawTx: refund.rawTx!, txHash: refund.refundTxHash! };
      // Mined as the chain's node tells (Bitcoin), or as its poller read it (the exchange's depository transfers).
      if ((await refunder.transactionMined?.(signed.txHash)) || (await unmatchedRefundIndexed(pool, deposit))) {
        await markUnmatchedRefundConfirmed(pool, deposit);
        return `confirmed: ${signed.txHash}`;
      }
      await refunder.broadcast(signed);
      await touchUnmatchedRefund(pool, deposit);
      return signed.txHash;
    }
    if (refund.status !== "queued") return `skipped: ${refund.status}`;

    const context = { chainId: deposit.chainId, depositTxHash: deposit.txHash, depositPosition: deposit.position };
    const obstacle = await unmatchedRefundObstacle(pool, deposit);
    if (obstacle) {
      await dropQueuedUnmatchedRefund(pool, deposit);
      logger.info({ ...context, obstacle }, "unmatched deposit no longer refunded");
      return `dropped: ${obstacle}`;
    }
    const stuck = async (status: "unrefundable" | "manual", reason: string, note: string) => {
      await markUnmatchedRefundStuck(pool, deposit, status, reason, note);
      logger.warn({ ...context, status, reason, note }, "unmatched deposit not refunded");
      return `stuck: ${reason}`;
    };
    const chain = deps.adapters.quoter(refund.chainId);
    const recipient = chain.address.parse(refund.recipient);
    if (!recipient)
      return stuck("manual", "MANUAL_REFUND_REQUIRED", `the depositor ${refund.recipient || "(none)"} is no address`);
    const currency = chain.nativeCurrency;
    const fee = await chain.estimateFee("refund", currency);
    const payable = refundAmount(refund.deposited, fee);
    if ("refundFailReason" in payable)
      return stuck(
        "unrefundable",
        payable.refundFailReason,
        `deposit ${refund.deposited} against the refund's fee ${fee}`,
      );
    const dust = chain.minimumPayout(currency, recipient);
    if (payable.amount < dust)
      return stuck(
        "unrefundable",
        "AMOUNT_TOO_LOW_TO_REFUND",
        `a refund of ${payable.amount} (deposit ${refund.deposited} less the fee ${fee}) is below the dust limit ${dust}`,
      );
    const prepared = await refunder.prepareRefund({
      orderId: refund.orderId,
      currency,
      recipient,
      amount: payable.amount,
      deposit: { txHash: refund.txHash, position: refund.position },
    });
    if ("refusal" in prepared) return stuck("manual", "MANUAL_REFUND_REQUIRED", prepared.refusal);
    const signed: SignedTransaction | undefined = await withTransaction(pool, async (db) => {
      const current = await getUnmatchedRefund(db, deposit, { forUpdate: true });
      if (current?.status !== "queued" || (await unmatchedRefundObstacle(db, deposit))) return undefined;
      const transaction = await refunder.signTransaction(fillLedgerIn(db), prepared.transaction);
      await markUnmatchedRefundSent(db, deposit, {
        amount: payable.amount,
        fee: refund.deposited - payable.amount,
        txHash: transaction.txHash,
        rawTx: transaction.rawTx,
      });
      return transaction;
    });
    // Another run signed it meanwhile, or the deposit was taken: look again at what is stored.
    if (!signed) return processUnmatchedRefund(job);
    await refunder.broadcast(signed);
    logger.info(
      { ...context, recipient, refundTxHash: signed.txHash, amount: payable.amount.toString() },
      "unmatched deposit refunded",
    );
    return signed.txHash;
  };
}
