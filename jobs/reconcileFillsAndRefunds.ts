import type pg from "pg";
import type { FillFact } from "../schema/chainFacts.js";
import { FACTS_PER_PASS, type FactWindow, findUnappliedFills, shortFillSubject } from "../schema/unappliedFacts.js";
import { findSweepableDeposits } from "../schema/depositSweeps.js";
import { findPendingWithoutFill, findStaleSubmitted, getFillAttempt } from "../schema/fillAttempts.js";
import { groupsByRequest } from "../schema/groupByRequest.js";
import { type PayoutReorg, findOrphanedFills, findReorgedPayouts, recordPayoutReorg } from "../schema/payoutReorgs.js";
import { applyIndexedFill } from "../schema/receiptFills.js";
import { raiseOperatorAlert } from "../schema/operatorAlerts.js";
import {
  dropQueuedRefund,
  findIndexedRefunds,
  findOpenRefunds,
  lockRequestRefunds,
  markRefundConfirmed,
} from "../schema/refunds.js";
import { type StoredRequest, getRequest } from "../schema/requests.js";
import { setRefundFailReason } from "../schema/setRefundFailReason.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { forEachConcurrently } from "../src/runtime/forEachConcurrently.js";
import { creditEarnedAppFees } from "./creditEarnedAppFees.js";
import type { ReconcileDeps } from "./reconcileDeps.js";
import type { ReconcileResult } from "./reconcileResult.js";
import type { DepositsResult } from "./reconcileDeposits.js";

// A refund job gets this long to sign and send before the tick queues it again (a lost job, a crash).
const REFUND_REQUEUE_AFTER_MS = 2_000;
// A sweep not mined by then is looked at again: marked confirmed once mined, else re-sent.
const SWEEP_RECHECK_AFTER_MS = 10_000;
// A submitted fill not indexed by then is looked at again: re-sent if the node lost it, refunded if it reverted.
const FILL_RECHECK_AFTER_MS = 5_000;
// A pending request without a fill attempt by then is queued again (a lost job); before, its deposits pass queues it.
const PENDING_REQUEUE_AFTER_MS = 2_000;
// Fill transactions at once, as for deposits.
const FILL_CONCURRENCY = 4;

/**
 * The rest of a pass (see `reconcile`): indexed fills and refunds, payouts reorged out, work a crash left behind.
 * `queued`: what a deposits pass just queued, not queued again.
 */
export async function reconcileFillsAndRefunds(
  deps: ReconcileDeps,
  window: FactWindow = {},
  queued: Pick<DepositsResult, "toFill" | "toRefund"> = { toFill: [], toRefund: [] },
): Promise<Omit<ReconcileResult, "deposits"> & { more: boolean }> {
  const { pool, logger } = deps;
  const toFill = [...queued.toFill];
  const toRefund = [...queued.toRefund];
  const fills = await findUnappliedFills(pool, deps.onchainSchema, window);
  // Requests side by side, as deposits are; one request's fills in the order indexed.
  await forEachConcurrently(groupsByRequest(fills), FILL_CONCURRENCY, async (ofRequest) => {
    for (const fill of ofRequest) await applyFill(fill);
  });
  async function applyFill(fill: FillFact) {
    await withTransaction(pool, async (client) => {
      // The request first, as the receipt's path does (its success, then its fill): the other order deadlocked with it.
      const request = await getRequest(client, fill.requestId, { forUpdate: true });
      if (request && (await heldShortFill(client, request, fill))) return;
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
        const ours = await solverTxHashes(client, fill.requestId);
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
      if (result.current === "failure" || result.current === "refund") await fillAfterFailure(client, fill);
      else
        logger.warn(
          { requestId: fill.requestId, status: result.current },
          "fill indexed for a request that cannot succeed",
        );
    });
  }

  /** Every transaction Crossfill's own fill attempt of the request signed (the current one and those it replaced). */
  async function solverTxHashes(client: pg.PoolClient, requestId: string): Promise<string[]> {
    const attempt = await getFillAttempt(client, requestId);
    return attempt ? [attempt.txHash, ...attempt.previousTxHashes] : [];
  }

  /**
   * Only the solver's key can make a fill, but one signed outside Crossfill's own attempts (an operator by hand, a
   * leaked key) may pay the recipient less than the request owes: that is no success. The fill is not applied (its
   * alert, one per fill fact, keeps it out of later passes), the request stays where it is, and an operator decides.
   */
  async function heldShortFill(client: pg.PoolClient, request: StoredRequest, fill: FillFact) {
    const owed = request.fillAmount ?? request.amountOut;
    if (fill.amount >= owed) return false;
    if ((await solverTxHashes(client, fill.requestId)).includes(fill.txHash)) return false;
    const details = {
      requestId: fill.requestId,
      fillChainId: fill.chainId,
      fillTxHash: fill.txHash,
      paid: fill.amount.toString(),
      owed: owed.toString(),
      status: request.status,
    };
    const subject = shortFillSubject(fill);
    if (await raiseOperatorAlert(client, { kind: "SHORT_FILL", subject, details }))
      logger.error({ alert: "SHORT_FILL", ...details }, "fill not made by Crossfill pays less than the request owes");
    return true;
  }

  /**
   * A fill landed for a request already failed (its fill was taken for cancelled, or a reorg brought it back): the
   * deposit must not be paid back as well. A refund not yet signed is dropped; one signed already cannot be, and the
   * deposit may be paid twice. Either way an operator is alerted; the request stays as it is.
   */
  async function fillAfterFailure(client: pg.PoolClient, fill: FillFact) {
    const refunds = await lockRequestRefunds(client, fill.requestId);
    const dropped: string[] = [];
    for (const refund of refunds)
      if (refund.status === "queued" && (await dropQueuedRefund(client, refund.id))) dropped.push(refund.id);
    const paying = refunds.filter((refund) => ["sent", "confirmed", "settled"].includes(refund.status));
    const kind = paying.length > 0 ? "FILL_AND_REFUND" : "FILL_AFTER_FAILURE";
    const details = {
      requestId: fill.requestId,
      fillChainId: fill.chainId,
      fillTxHash: fill.txHash,
      droppedRefundIds: dropped,
      refundIds: paying.map((refund) => refund.id),
      refundTxHash: paying[0]?.txHash ?? null,
      // Waiting for an operator: never to be paid now that the fill landed.
      unpaidRefundIds: refunds.filter((refund) => ["manual", "unrefundable"].includes(refund.status)).map((r) => r.id),
    };
    if (await raiseOperatorAlert(client, { kind, subject: fill.requestId, details }))
      logger.error(
        { alert: kind, ...details },
        kind === "FILL_AND_REFUND"
          ? "fill indexed for a failed request whose refund was signed already: the deposit may be paid twice"
          : "fill indexed for a failed request: its refund was dropped; operator action needed",
      );
  }

  const refunds = await findIndexedRefunds(pool, deps.onchainSchema);
  for (const refund of refunds) {
    await withTransaction(pool, async (client) => {
      if (!(await markRefundConfirmed(client, refund.id)) || !refund.refundsRequest) return;
      // A reverted withdrawal a reorg mined again: no longer waiting for an operator.
      if (refund.status === "manual") await setRefundFailReason(client, refund.requestId, null);
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
    ...(await findPendingWithoutFill(pool, PENDING_REQUEUE_AFTER_MS)),
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
    more: fills.length >= FACTS_PER_PASS,
    fills: fills.length,
    refunds: refunds.length,
    requeued: requeueFills.length + requeueRefunds.length,
  };
}
