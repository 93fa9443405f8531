import { confirmMempoolDeposit, recordRequestDeposit } from "../schema/requestDeposits.js";
import { FACTS_PER_PASS, type FactWindow, findUnappliedDeposits } from "../schema/unappliedFacts.js";
import { readDepositContext } from "../schema/depositContext.js";
import { groupsByRequest } from "../schema/groupByRequest.js";
import { getRequest, insertChildRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { assessDeposit, paidAfterDeadline } from "../src/domain/assessDeposit.js";
import { fixedFeesInOf } from "../src/domain/fixedFeesIn.js";
import { overpaidBeyondTolerance, overpaymentRuleOf } from "../src/domain/overpaymentRule.js";
import { childRequestId } from "../src/domain/childRequestId.js";
import { isCrossfillError } from "../src/domain/errors.js";
import { oncePerPeriod } from "../src/runtime/oncePerPeriod.js";
import { forEachConcurrently } from "../src/runtime/forEachConcurrently.js";
import { applyOnTimeDeposits } from "./applyOnTimeDeposits.js";
import { depositEventDetails } from "./depositEventDetails.js";
import { failRequest } from "./failRequest.js";
import type { ReconcileDeps } from "./reconcileDeps.js";
import { repriceDeposit } from "./repriceDeposit.js";
import { chainLimitExceeded } from "./chainLimitExceeded.js";

// The general path's deposit transactions at once (most of a worker's 10 connections): a block's deposits that are
// not the common case do not wait for one another. A deposit transaction holds one connection and never waits for
// another, so the rest of the worker is never starved for long.
const DEPOSIT_CONCURRENCY = 8;

// A deposit left for want of a price is taken again by every pass (several a second): it is logged once a minute.
const DEFERRED_LOG_PERIOD_MS = 60_000;
const deferredLogs = new WeakMap<object, ReturnType<typeof oncePerPeriod>>();

type UnappliedDeposit = Awaited<ReturnType<typeof findUnappliedDeposits>>[number];

/** What applying one deposit leaves to queue once its transaction commits. */
type Queued = { fill?: string; fillKey?: string; refund?: string };

/**
 * What a deposits pass applied and queued; `more`: it read a full batch, so more may be waiting; `deferred`: the
 * requests whose deposit needed a price that no source had fresh (left unapplied, taken again by a later pass).
 */
export type DepositsResult = {
  deposits: number;
  toFill: string[];
  toRefund: string[];
  more: boolean;
  deferred: string[];
};

/**
 * The deposits part of a pass (see `reconcile`): a worker runs it on its own, so a deposit is never applied behind
 * a busy block's fills.
 */
export async function reconcileDeposits(deps: ReconcileDeps, window: FactWindow = {}): Promise<DepositsResult> {
  const { pool, logger } = deps;
  const toFill: string[] = [];
  const toRefund: string[] = [];
  const deposits = await findUnappliedDeposits(pool, deps.onchainSchema, window);
  const applied: Queued[] = [];
  const deferred: string[] = [];
  // One per worker (its logger), kept across passes.
  let deferredLog = deferredLogs.get(logger);
  if (!deferredLog) {
    deferredLog = oncePerPeriod({ periodMs: DEFERRED_LOG_PERIOD_MS });
    deferredLogs.set(logger, deferredLog);
  }
  try {
    // Each request's first deposit: the common case in one transaction for all (applyOnTimeDeposits).
    const groups = groupsByRequest(deposits);
    const onTime = await applyOnTimeDeposits(
      pool,
      groups.map((ofRequest) => ofRequest[0]!),
    );
    for (const requestId of onTime.pending) applied.push({ fill: requestId });
    const left = new Set(onTime.left);
    // The rest side by side, each deposit in a transaction of its own (a late one re-prices on the chain meanwhile);
    // one request's deposits in the order paid, so the first stays the request's deposit and any later one becomes
    // its child.
    const rest = groups
      .map((ofRequest) => (left.has(ofRequest[0]!) ? ofRequest : ofRequest.slice(1)))
      .filter((ofRequest) => ofRequest.length > 0);
    await forEachConcurrently(rest, DEPOSIT_CONCURRENCY, async (ofRequest) => {
      for (const deposit of ofRequest) {
        try {
          applied.push(await applyDeposit(deposit));
        } catch (error) {
          // A late or overpaid deposit is judged at the current price; with none fresh (PRICE_FETCH_FAILED) its
          // transaction rolled back: it is neither filled at a stale price nor refunded for want of one, but left
          // unapplied for a later pass, and the pass goes on with the other requests. The request's later deposits
          // wait with it, so the first paid stays its deposit.
          if (!isCrossfillError(error) || error.errorCode !== "PRICE_FETCH_FAILED") throw error;
          deferred.push(deposit.requestId);
          const skipped = deferredLog(deposit.requestId);
          if (skipped !== undefined) {
            logger.warn(
              { requestId: deposit.requestId, txHash: deposit.txHash, reason: error.message, passesSinceLast: skipped },
              "deposit not applied yet: no fresh price to re-price it; retried on a later pass",
            );
          }
          break;
        }
      }
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
      if (!request) return {};
      const context = await readDepositContext(client, request.id, deposit);
      if (context.applied) return {};
      // Mined after it was applied from the mempool (Bitcoin): the same payment, now in a block; the fill waiting for
      // its confirmations is run again at once.
      if (context.appliedFromMempool && (await confirmMempoolDeposit(client, deposit)))
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
      const late = paidAfterDeadline(deposit.timestamp, request.deadline);
      const overpayment = overpaymentRuleOf(request.quote);
      // Past the tolerance an overpayment is priced anew, and judged against the chains' limits on what was paid.
      const overpaid =
        overpaidBeyondTolerance(request, overpayment, deposit.amount) && overpayment.beyond === "reprice";
      const overLimit = overpaid ? await chainLimitExceeded(client, request, deposit.amount, deps) : undefined;
      if (overLimit) {
        return {
          refund: await failRequest(client, {
            request,
            from: ["waiting"],
            failReason: "SOLVER_CAPACITY_EXCEEDED",
            deposit,
            details: { ...depositEventDetails(deposit), message: overLimit },
          }),
        };
      }
      const repriced =
        (late && request.latePaymentSlippageBps !== null) || overpaid
          ? await repriceDeposit(request, deposit.amount, deps)
          : undefined;
      const assessment = assessDeposit(
        {
          ...request,
          strict: context.depositAddressType === "strict",
          overpayment,
          fixedFeesIn: fixedFeesInOf(request.quote),
        },
        deposit,
        repriced,
      );
      const details = depositEventDetails(deposit);
      if (assessment.fill) {
        await transitionRequest(client, {
          requestId: request.id,
          to: "pending",
          fillAmount: assessment.amountOut,
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
  return { deposits: deposits.length, toFill, toRefund, more: deposits.length >= FACTS_PER_PASS, deferred };
}
