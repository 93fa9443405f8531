import type pg from "pg";
import type { Logger } from "pino";
import {
  type FactWindow,
  MEMPOOL_BLOCK_HASH,
  confirmMempoolDeposit,
  isDepositApplied,
  findUnappliedDeposits,
  findUnappliedFills,
  recordRequestDeposit,
} from "../schema/chainFacts.js";
import { type PayoutReorg, findOrphanedFills, findReorgedPayouts, recordPayoutReorg } from "../schema/payoutReorgs.js";
import { applyIndexedFill } from "../schema/receiptFills.js";
import { requestDepositAddressType } from "../schema/depositAddresses.js";
import { type SweepableDeposit, findSweepableDeposits } from "../schema/depositSweeps.js";
import { findPendingWithoutFill, findStaleSubmitted, getFillAttempt } from "../schema/fillAttempts.js";
import { findIndexedRefunds, findOpenRefunds, markRefundConfirmed } from "../schema/refunds.js";
import { getRequest, insertChildRequest, setFillAmount } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { assessDeposit } from "../src/domain/assessDeposit.js";
import { forEachConcurrently } from "../src/runtime/forEachConcurrently.js";
import { childRequestId } from "../src/domain/childRequestId.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { creditEarnedAppFees } from "./creditEarnedAppFees.js";
import { failRequest } from "./failRequest.js";
import { repriceDeposit } from "./repriceDeposit.js";

export type ReconcileDeps = {
  pool: pg.Pool;
  onchainSchema: string;
  /**
   * Queues a fill at once; with `key`, as a job of its own for that key (a deposit mined after it was applied from
   * the mempool), so a fill job already run for the request in the same requeue window does not swallow it.
   */
  enqueueFill: (requestId: string, options?: { key: string }) => Promise<void>;
  enqueueRefund: (refundId: string) => Promise<void>;
  /** Sweeps of deposit addresses; absent where no adapter holds their key (nothing is swept). */
  enqueueSweep?: (deposit: SweepableDeposit) => Promise<void>;
  /** Re-price late deposits of quotes that allowed late payment. */
  registry: ChainRegistry;
  prices: PriceSource;
  logger: Logger;
};

export type ReconcileResult = { deposits: number; fills: number; refunds: number; requeued: number };

// A refund job gets this long to sign and send before the tick queues it again (a lost job, a crash).
const REFUND_REQUEUE_AFTER_MS = 2_000;
// A sweep not mined by then is looked at again: marked confirmed once mined, else re-sent.
const SWEEP_RECHECK_AFTER_MS = 10_000;
// A submitted fill not indexed by then is looked at again: re-sent if the node lost it, refunded if it reverted.
const FILL_RECHECK_AFTER_MS = 5_000;
// Deposit transactions at once: a few of the pool's connections, the rest stay for the API and the jobs.
const DEPOSIT_CONCURRENCY = 4;

type UnappliedDeposit = Awaited<ReturnType<typeof findUnappliedDeposits>>[number];

/** What applying one deposit leaves to queue once its transaction commits. */
type Queued = { fill?: string; fillKey?: string; refund?: string };

/**
 * One pass over chain facts not yet applied to requests: deposits move `waiting` requests to `pending`
 * (or `failure` when the deposit does not match the order), indexed fills move them to `success` and credit their
 * app-fee recipients. A Bitcoin deposit is applied when it is seen in the mempool; its block's fact later only moves
 * it to that block.
 * A deposit that does not match its order fails the request and is refunded; a further deposit on a
 * request already under way becomes a child request, failed as DOUBLE_SPEND and refunded. Indexed refund withdrawals move failed requests
 * to `refund`; deposit-address deposits of succeeded requests are queued for their sweep. Every step is keyed in Postgres, so running it twice, or on two workers at once, changes nothing.
 * With a `window`, only deposits and fills indexed within it are read (the rest of the pass is the same).
 */
export async function reconcile(deps: ReconcileDeps, window: FactWindow = {}): Promise<ReconcileResult> {
  const { pool, logger } = deps;
  const toFill: string[] = [];
  const toRefund: string[] = [];
  const deposits = await findUnappliedDeposits(pool, deps.onchainSchema, window);
  // Requests side by side, each deposit in a transaction of its own, so the last deposit of a busy block is not
  // applied behind the others (nor behind the fills queued meanwhile); one request's deposits in the order paid, so
  // the first stays the request's deposit and any later one becomes its child.
  const byRequest = new Map<string, UnappliedDeposit[]>();
  for (const deposit of deposits)
    byRequest.set(deposit.requestId, [...(byRequest.get(deposit.requestId) ?? []), deposit]);
  const applied: Queued[] = [];
  try {
    await forEachConcurrently([...byRequest.values()], DEPOSIT_CONCURRENCY, async (ofRequest) => {
      for (const deposit of ofRequest) applied.push(await applyDeposit(deposit));
    });
  } finally {
    // Queued once the pass's deposits are applied (those that were, if one failed): a fill started meanwhile would
    // hold up the others' `pending` (it shares this process's CPU), and a fill waits for the next block anyway.
    for (const queued of applied) {
      if (queued.fill) {
        toFill.push(queued.fill);
        await deps.enqueueFill(queued.fill, queued.fillKey === undefined ? undefined : { key: queued.fillKey });
      }
      if (queued.refund) {
        toRefund.push(queued.refund);
        await deps.enqueueRefund(queued.refund);
      }
    }
  }
  async function applyDeposit(deposit: UnappliedDeposit): Promise<Queued> {
    const queued = await withTransaction(pool, async (client): Promise<Queued> => {
      // Every deposit of one order locks its request first, so two workers never both apply one deposit.
      const request = await getRequest(client, deposit.requestId, { forUpdate: true });
      if (!request || (await isDepositApplied(client, deposit))) return {};
      // Mined after it was applied from the mempool (Bitcoin): the same payment, now in a block; the fill waiting for
      // its confirmations is run again at once.
      if (deposit.blockHash !== MEMPOOL_BLOCK_HASH && (await confirmMempoolDeposit(client, deposit)))
        return request.status === "pending" ? { fill: request.id, fillKey: `mined-${deposit.blockHash}` } : {};
      if (request.status !== "waiting") {
        // The order was paid already: this deposit becomes a child request of its own that fails as DOUBLE_SPEND
        // and is refunded (its depositor follows it by id); the first deposit is still filled exactly once.
        const childId = childRequestId(request.id, deposit);
        const created = await insertChildRequest(client, {
          id: childId,
          parentId: request.id,
          depositor: deposit.depositor,
          amountIn: deposit.amount,
        });
        await recordRequestDeposit(client, { ...deposit, requestId: childId });
        // The same deposit mined again after a reorg: its child exists and its refund is keyed by the deposit.
        if (!created) return {};
        logger.warn(
          { requestId: request.id, childRequestId: childId, txHash: deposit.txHash, status: request.status },
          "second deposit for one order; refunding it as a child request",
        );
        return {
          refund: await failRequest(client, {
            request: { id: childId, refundTo: request.refundTo },
            from: ["waiting"],
            failReason: "DOUBLE_SPEND",
            deposit,
            details: { depositTxHash: deposit.txHash, depositChainId: deposit.chainId, parentRequestId: request.id },
          }),
        };
      }
      await recordRequestDeposit(client, deposit);
      const late = deposit.timestamp * 1000n > BigInt(request.deadline.getTime());
      const repriced =
        late && request.latePaymentSlippageBps !== null
          ? await repriceDeposit(request, deposit.amount, deps)
          : undefined;
      const strict = (await requestDepositAddressType(client, request.id)) === "strict";
      const assessment = assessDeposit({ ...request, strict }, deposit, repriced);
      const details = {
        depositTxHash: deposit.txHash,
        depositChainId: deposit.chainId,
        depositedAmount: deposit.amount.toString(),
      };
      if (assessment.fill) {
        await setFillAmount(client, request.id, assessment.amountOut);
        await transitionRequest(client, {
          requestId: request.id,
          to: "pending",
          details: { ...details, fillAmount: assessment.amountOut.toString() },
        });
        return { fill: request.id };
      }
      return {
        refund: await failRequest(client, {
          request,
          from: ["waiting"],
          failReason: assessment.failReason,
          deposit,
          details,
        }),
      };
    });
    return queued;
  }

  const fills = await findUnappliedFills(pool, deps.onchainSchema, window);
  for (const fill of fills) {
    await withTransaction(pool, async (client) => {
      // The request first, as the receipt's path does (its success, then its fill): the other order deadlocked with it.
      await getRequest(client, fill.requestId, { forUpdate: true });
      const recorded = await applyIndexedFill(client, fill);
      if (recorded.applied === "none") return;
      if (recorded.applied === "confirmed") {
        // The fill the request succeeded on, from its receipt: now a confirmed chain fact. Crediting again is a no-op.
        await creditEarnedAppFees(client, fill.requestId, deps.registry);
        return;
      }
      if (recorded.applied === "replaced") {
        // The receipt's fill (recorded when the request succeeded) is not the one the indexer saw: the indexed one
        // is the chain's and takes its place; the receipt's hash stays in the fill's disagreement.
        logger.error(
          { requestId: fill.requestId, indexedTxHash: fill.txHash, receiptTxHash: recorded.receiptTxHash },
          "indexed fill disagrees with the fill receipt the request succeeded on",
        );
      }
      const result = await transitionRequest(client, {
        requestId: fill.requestId,
        to: "success",
        details: { fillTxHash: fill.txHash },
      });
      if (result.applied) {
        await creditEarnedAppFees(client, fill.requestId, deps.registry);
        return;
      }
      if (result.current === "success") {
        // Succeeded on the solver's receipt already (without a receipt fill: a family whose receipts carry none):
        // the indexed fill must be one of the solver's own versions.
        const attempt = await getFillAttempt(client, fill.requestId);
        const ours = attempt ? [attempt.txHash, ...attempt.previousTxHashes] : [];
        if (!ours.includes(fill.txHash)) {
          logger.error(
            { requestId: fill.requestId, indexedTxHash: fill.txHash, solverTxHashes: ours },
            "indexed fill disagrees with the fill receipt the request succeeded on",
          );
          return;
        }
        // App fees are earned on the indexed fill, whichever of the two moved the request to success.
        await creditEarnedAppFees(client, fill.requestId, deps.registry);
        return;
      }
      logger.warn(
        { requestId: fill.requestId, status: result.current },
        "fill indexed for a request that cannot succeed",
      );
    });
  }

  const refunds = await findIndexedRefunds(pool, deps.onchainSchema);
  for (const refund of refunds) {
    await withTransaction(pool, async (client) => {
      if (!(await markRefundConfirmed(client, refund.id)) || !refund.refundsRequest) return;
      await transitionRequest(client, {
        requestId: refund.requestId,
        from: ["failure"],
        to: "refund",
        details: { refundTxHash: refund.txHash },
      });
    });
  }

  // A payout reorged out of a polled chain after its request succeeded: un-applied and recorded; its fill job (queued
  // at once, then every requeue window until the payout is applied anew) re-broadcasts the same signed payout.
  for (const orphan of await findOrphanedFills(pool, deps.onchainSchema)) {
    const reorg: PayoutReorg = {
      detectedAt: Date.now(),
      source: "poller",
      reason: "payout transaction no longer in the chain",
      txHash: orphan.txHash,
      blockNumber: Number(orphan.blockNumber),
      action: "rebroadcast",
    };
    if (await withTransaction(pool, (client) => recordPayoutReorg(client, orphan, reorg))) {
      logger.warn({ requestId: orphan.requestId, reorg }, "payout reorged out after success; following it again");
      // At once, under a job id of its own: a fill job of this request may hold the current requeue window's id.
      await deps.enqueueFill(orphan.requestId, { key: `payout-reorg-${reorg.detectedAt}` });
      toFill.push(orphan.requestId);
    }
  }

  // Work a crash or a lost job left behind: deposits applied without a fill job, refunds never sent, payouts
  // reorged out and not mined again.
  const stranded = [
    ...(await findPendingWithoutFill(pool)),
    ...(await findStaleSubmitted(pool, FILL_RECHECK_AFTER_MS)),
    ...(await findReorgedPayouts(pool)),
  ];
  const requeueFills = [...new Set(stranded)].filter((id) => !toFill.includes(id));
  for (const requestId of requeueFills) await deps.enqueueFill(requestId);
  const requeueRefunds = [...new Set(await findOpenRefunds(pool, REFUND_REQUEUE_AFTER_MS))].filter(
    (id) => !toRefund.includes(id),
  );
  for (const refundId of requeueRefunds) await deps.enqueueRefund(refundId);
  // Deposit addresses are swept after their request succeeded: the fill never waits for it.
  if (deps.enqueueSweep)
    for (const deposit of await findSweepableDeposits(pool, SWEEP_RECHECK_AFTER_MS)) await deps.enqueueSweep(deposit);
  return {
    deposits: deposits.length,
    fills: fills.length,
    refunds: refunds.length,
    requeued: requeueFills.length + requeueRefunds.length,
  };
}
