import type pg from "pg";
import type { Logger } from "pino";
import {
  type DepositOutpoint,
  dropQueuedUnmatchedRefund,
  getUnmatchedRefund,
  markUnmatchedRefundConfirmed,
  markUnmatchedRefundSent,
  markUnmatchedRefundStuck,
  replaceSentUnmatchedRefund,
  touchUnmatchedRefund,
  unmatchedDepositFact,
  unmatchedRefundIndexed,
  unmatchedRefundObstacle,
} from "../schema/unmatchedRefunds.js";
import { fillLedgerIn } from "../schema/fillLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { SignedTransaction } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { checkDeposit } from "./checkDeposit.js";
import { refundFeeIn } from "./refundFeeIn.js";
import { followSentWithdrawal } from "./followSentWithdrawal.js";
import { type PositionPayload, withPosition } from "./withPosition.js";
import { refundAmount } from "../src/domain/refundAmount.js";

export type UnmatchedRefundDeps = {
  pool: pg.Pool;
  adapters: ChainAdapters;
  /** A token deposit's refund fee is charged in the token, at current prices. */
  registry: ChainRegistry;
  prices: PriceSource;
  logger: Logger;
};

/**
 * Pays one deposit that named no request (schema/unmatchedRefunds) back to its depositor from the depository, in the
 * currency it paid, less the refund's fee (Bitcoin spends the deposit's output whole; a chain whose refunds pay from
 * pooled funds, Solana's, first waits for the deposit to be final, as a request's refund does). The signed refund is
 * stored before it is broadcast; a later run re-sends the stored one until it is mined — re-signed and stored anew
 * where it expired unlanded (resendWithdrawal) — then marks it confirmed. A deposit too small to pay its fee is kept
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
      const sent = await followSentWithdrawal(refunder, signed, (next) =>
        replaceSentUnmatchedRefund(pool, deposit, signed.txHash, next),
      );
      if (sent.state === "resigned")
        logger.info({ ...deposit, replaced: signed.txHash, refundTxHash: sent.txHash }, "expired refund re-signed");
      await touchUnmatchedRefund(pool, deposit);
      return "txHash" in sent ? sent.txHash : `${sent.state}: ${signed.txHash}`;
    }
    if (refund.status !== "queued") return `skipped: ${refund.status}`;

    const context = { chainId: deposit.chainId, depositTxHash: deposit.txHash, depositPosition: deposit.position };
    const obstacle = await unmatchedRefundObstacle(pool, deposit);
    const fact = await unmatchedDepositFact(pool, deposit);
    if (obstacle || !fact) {
      await dropQueuedUnmatchedRefund(pool, deposit);
      logger.info({ ...context, obstacle }, "unmatched deposit no longer refunded");
      return `dropped: ${obstacle ?? "the deposit is no longer in a block"}`;
    }
    // Paid from funds every deposit shares: a deposit a fork could still take back is not paid back yet.
    if (!refunder.refundSpendsDeposit) {
      const { registry, prices } = deps;
      const check = await checkDeposit(fact, { deposits: deps.adapters.deposits(refund.chainId), registry, prices });
      if (check.state !== "final") {
        await touchUnmatchedRefund(pool, deposit);
        return `waiting: the deposit is ${check.state}`;
      }
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
    const { currency } = fact;
    const charge = await refundFeeIn(chain, currency, recipient, deps);
    if (charge === undefined)
      return stuck("manual", "MANUAL_REFUND_REQUIRED", `no price to charge the refund's fee in ${currency}`);
    const { fee } = charge;
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
      chargedRent: charge.rent,
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
