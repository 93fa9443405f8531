import type pg from "pg";
import type { Logger } from "pino";
import {
  type AppliedDeposit,
  findAppliedDeposit,
  markDepositReorged,
  moveAppliedDeposit,
} from "../schema/requestDeposits.js";
import {
  type Refund,
  dropQueuedRefund,
  getRefund,
  markRefundSent,
  markRefundStuck,
  moveRefundDeposit,
  replaceSentRefund,
} from "../schema/refunds.js";
import { raiseOperatorAlert } from "../schema/operatorAlerts.js";
import { getRequest } from "../schema/requests.js";
import { setRefundFailReason } from "../schema/setRefundFailReason.js";
import { fillLedgerIn } from "../schema/fillLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { DepositPort, RefundPort, SignedTransaction } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { refundAmount } from "../src/domain/refundAmount.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { checkDeposit } from "./checkDeposit.js";
import { followSentWithdrawal } from "./followSentWithdrawal.js";
import { confirmationDelayMs } from "./confirmationDelayMs.js";
import { movedDepositTaken } from "./movedDepositTaken.js";
import { refundFeeIn } from "./refundFeeIn.js";

export type RefundDeps = {
  pool: pg.Pool;
  adapters: ChainAdapters;
  registry: ChainRegistry;
  prices: PriceSource;
  /** Runs the refund again later: while its deposit gathers confirmations. */
  enqueueRefund: (refundId: string, options: { delayMs: number; key: string }) => Promise<void>;
  logger: Logger;
};

/**
 * Pays a deposit back from the Depository, less the refund's own gas. The signed withdrawal is stored
 * before it is broadcast; a retry re-sends it. A refund too small for its gas, or one the chain refuses,
 * is marked for an operator (`crossfill refunds`) with the spec's refundFailReason.
 *
 * Where the refund pays from funds all deposits share (the EVM Depository), a deposit is paid back only once it is as
 * final as a fill would need it: refunding one a reorg then takes out would pay with other users' money. A refund that
 * spends the deposit itself (Bitcoin) goes at once: it cannot outlive its deposit.
 */
export function createRefundProcessor(deps: RefundDeps) {
  const { pool, logger } = deps;

  /**
   * Undefined once the refunded deposit is final; else what was done instead: the refund waits for the deposit's
   * confirmations, follows it to the block a reorg mined it again in, or is dropped with it when it was reorged out.
   * "unrecorded": no request applied the deposit, so there is nothing to check it against.
   */
  async function depositNotFinal(refund: Refund, deposits: DepositPort): Promise<string | undefined> {
    const found = await findAppliedDeposit(pool, {
      chainId: refund.depositChainId,
      txHash: refund.depositTxHash,
      position: refund.depositPosition,
    });
    if (!found) return "unrecorded";
    const { deposit } = found;
    // Found reorged out already (by the fill's check): nothing to ask the node, nothing to record again.
    if (found.reorged) return dropRefund(refund, deposit, undefined);
    const check = await checkDeposit(deposit, { deposits, registry: deps.registry, prices: deps.prices });
    if (check.state === "final") return undefined;
    if (check.state === "confirming") {
      await deps.enqueueRefund(refund.id, {
        delayMs: confirmationDelayMs(deposits, check.missingBlocks),
        key: `${deposit.blockNumber + BigInt(check.missingBlocks)}`,
      });
      return `confirming: ${check.missingBlocks} blocks to go`;
    }
    if (check.state === "moved") {
      const moved = await withTransaction(pool, async (db) => {
        if (!(await moveAppliedDeposit(db, refund.requestId, deposit, check.to))) return false;
        await moveRefundDeposit(db, refund.id, check.to.position);
        return true;
      });
      if (moved) {
        logger.warn(
          { refundId: refund.id, txHash: deposit.txHash, from: deposit.blockHash, to: check.to.blockHash },
          "refunded deposit mined again in another block; following it",
        );
        await deps.enqueueRefund(refund.id, { delayMs: 200, key: `moved-${check.to.blockHash}` });
        return `moved: deposit now in block ${check.to.blockNumber}`;
      }
    }
    const context = { source: "refund-check", action: "refund" };
    const reorg = check.state === "reorged" ? { ...check.reorg, ...context } : movedDepositTaken(deposit, context);
    return dropRefund(refund, deposit, { ...reorg, detectedAt: Date.now(), refundId: refund.id });
  }

  /**
   * Forgets a queued refund whose deposit is gone, recording `reorg` on the deposit (undefined: recorded already);
   * "signed meanwhile" when another run signed it first.
   */
  async function dropRefund(
    refund: Refund,
    deposit: AppliedDeposit,
    reorg: Record<string, unknown> | undefined,
  ): Promise<string> {
    const dropped = await withTransaction(pool, async (db) => {
      const current = await getRefund(db, refund.id, { forUpdate: true });
      if (current?.status !== "queued") return false;
      if (reorg) await markDepositReorged(db, deposit, reorg);
      return dropQueuedRefund(db, refund.id);
    });
    if (!dropped) return "signed meanwhile";
    logger.warn(
      { refundId: refund.id, requestId: refund.requestId, txHash: deposit.txHash, reorg },
      "refunded deposit reorged out before its refund was sent; nothing to pay back",
    );
    return `dropped: ${reorg ? String(reorg.reason) : "deposit reorged out"}`;
  }

  /**
   * A sent refund, followed until it is indexed (followSentWithdrawal; one that expired unlanded is re-signed and
   * stored in its place before it is sent). A withdrawal that reverted paid nothing and
   * would only be re-sent in vain: it goes to an operator (MANUAL_REFUND_REQUIRED), with an alert.
   */
  async function followSentRefund(refund: Refund, refunder: RefundPort): Promise<string> {
    const sent = { rawTx: refund.rawTx!, txHash: refund.txHash! };
    const receipt = await followSentWithdrawal(refunder, sent, (next) =>
      replaceSentRefund(pool, refund.id, sent.txHash, next),
    );
    if (receipt.state === "resigned")
      logger.info({ refundId: refund.id, replaced: sent.txHash, txHash: receipt.txHash }, "expired refund re-signed");
    if (receipt.state !== "reverted") return "txHash" in receipt ? receipt.txHash : sent.txHash;
    const reason = "MANUAL_REFUND_REQUIRED";
    const details = {
      refundId: refund.id,
      requestId: refund.requestId,
      chainId: refund.chainId,
      txHash: sent.txHash,
      blockNumber: receipt.blockNumber,
      currency: refund.currency,
      amount: refund.amount,
      recipient: refund.recipient,
    };
    const raised = await withTransaction(pool, async (db) => {
      await markRefundStuck(db, refund.id, "manual", reason, `the withdrawal ${sent.txHash} reverted on-chain`);
      if (refund.refundsRequest) await setRefundFailReason(db, refund.requestId, reason);
      return raiseOperatorAlert(db, { kind: "REFUND_REVERTED", subject: refund.id, details });
    });
    if (raised)
      logger.error({ alert: "REFUND_REVERTED", ...details }, "refund withdrawal reverted; operator action needed");
    return `stuck: ${reason}`;
  }

  return async function processRefund(job: { data: { refundId: string } }): Promise<string> {
    const refund = await getRefund(pool, job.data.refundId);
    if (!refund) return "skipped: unknown";
    const refunder = deps.adapters.refunder(refund.chainId);
    if (refund.status === "sent") return followSentRefund(refund, refunder);
    if (refund.status !== "queued") return `skipped: ${refund.status}`;
    const request = await getRequest(pool, refund.requestId);
    if (!request) return "skipped: no request";
    const stuck = async (status: "unrefundable" | "manual", reason: string, note: string) => {
      await withTransaction(pool, async (db) => {
        await markRefundStuck(db, refund.id, status, reason, note);
        if (refund.refundsRequest) await setRefundFailReason(db, refund.requestId, reason);
      });
      logger.warn({ refundId: refund.id, requestId: refund.requestId, reason, note }, "refund needs an operator");
      return `stuck: ${reason}`;
    };
    const unsettled = refunder.refundSpendsDeposit
      ? undefined
      : await depositNotFinal(refund, deps.adapters.deposits(refund.chainId));
    if (unsettled === "unrecorded")
      return stuck("manual", "MANUAL_REFUND_REQUIRED", "its deposit is not recorded as applied: it cannot be checked");
    if (unsettled) return unsettled === "signed meanwhile" ? processRefund(job) : unsettled;

    const charge = await refundFeeIn(deps.adapters.quoter(refund.chainId), refund.currency, refund.recipient, deps);
    if (charge === undefined)
      return stuck("manual", "MANUAL_REFUND_REQUIRED", `no price to charge the refund's gas in ${refund.currency}`);
    const gasCost = charge.fee;
    const payable = refundAmount(refund.deposited, gasCost);
    if ("refundFailReason" in payable) {
      return stuck(
        "unrefundable",
        payable.refundFailReason,
        `deposit ${refund.deposited} against the refund's gas ${gasCost}`,
      );
    }
    const { amount } = payable;
    const prepared = await refunder.prepareRefund({
      orderId: request.orderId,
      currency: refund.currency,
      recipient: refund.recipient,
      amount,
      deposit: { txHash: refund.depositTxHash, position: refund.depositPosition },
      chargedRent: charge.rent,
    });
    if ("refusal" in prepared)
      return stuck("manual", "MANUAL_REFUND_REQUIRED", `the refund cannot be sent: ${prepared.refusal}`);
    const signed: SignedTransaction | undefined = await withTransaction(pool, async (db) => {
      const current = await getRefund(db, refund.id, { forUpdate: true });
      if (current?.status !== "queued") return undefined;
      const transaction = await refunder.signTransaction(fillLedgerIn(db), prepared.transaction);
      await markRefundSent(db, refund.id, { amount, gasCost, ...transaction });
      return transaction;
    });
    // Another run signed it meanwhile: send what it stored.
    if (!signed) return processRefund(job);
    await refunder.broadcast(signed);
    logger.info(
      { refundId: refund.id, requestId: refund.requestId, txHash: signed.txHash, amount: amount.toString() },
      "refund sent",
    );
    return signed.txHash;
  };
}
