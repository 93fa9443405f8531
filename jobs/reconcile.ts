import type pg from "pg";
import type { Logger } from "pino";
import {
  isDepositApplied,
  findUnappliedDeposits,
  findUnappliedFills,
  recordRequestDeposit,
  recordRequestFill,
} from "../schema/chainFacts.js";
import { findPendingWithoutFill, findStaleSubmitted } from "../schema/fillAttempts.js";
import { findIndexedRefunds, findOpenRefunds, markRefundConfirmed } from "../schema/refunds.js";
import { getRequest, insertChildRequest, setFillAmount } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { assessDeposit } from "../src/domain/assessDeposit.js";
import { childRequestId } from "../src/domain/childRequestId.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { failRequest } from "./failRequest.js";
import { repriceDeposit } from "./repriceDeposit.js";

export type ReconcileDeps = {
  pool: pg.Pool;
  onchainSchema: string;
  enqueueFill: (requestId: string) => Promise<void>;
  enqueueRefund: (refundId: string) => Promise<void>;
  /** Re-price late deposits of quotes that allowed late payment. */
  registry: ChainRegistry;
  prices: PriceSource;
  logger: Logger;
};

export type ReconcileResult = { deposits: number; fills: number; refunds: number; requeued: number };

// A refund job gets this long to sign and send before the tick queues it again (a lost job, a crash).
const REFUND_REQUEUE_AFTER_MS = 2_000;
// A submitted fill not indexed by then is looked at again: re-sent if the node lost it, refunded if it reverted.
const FILL_RECHECK_AFTER_MS = 5_000;

/**
 * One pass over chain facts not yet applied to requests: deposits move `waiting` requests to `pending`
 * (or `failure` when the deposit does not match the order), indexed fills move them to `success`.
 * A deposit that does not match its order fails the request and is refunded; a further deposit on a
 * request already under way becomes a child request, failed as DOUBLE_SPEND and refunded. Indexed refund withdrawals move failed requests
 * to `refund`. Every step is keyed in Postgres, so running it twice, or on two workers at once, changes nothing.
 */
export async function reconcile(deps: ReconcileDeps): Promise<ReconcileResult> {
  const { pool, logger } = deps;
  const toFill: string[] = [];
  const toRefund: string[] = [];
  const deposits = await findUnappliedDeposits(pool, deps.onchainSchema);
  for (const deposit of deposits) {
    const queued = await withTransaction(pool, async (client): Promise<{ fill?: string; refund?: string }> => {
      // Every deposit of one order locks its request first, so two workers never both apply one deposit.
      const request = await getRequest(client, deposit.requestId, { forUpdate: true });
      if (!request || (await isDepositApplied(client, deposit))) return {};
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
      const assessment = assessDeposit(request, deposit, repriced);
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
    // Queued as soon as its transaction commits: the fill's latency does not wait for the rest of the batch.
    if (queued.fill) {
      toFill.push(queued.fill);
      await deps.enqueueFill(queued.fill);
    }
    if (queued.refund) {
      toRefund.push(queued.refund);
      await deps.enqueueRefund(queued.refund);
    }
  }

  const fills = await findUnappliedFills(pool, deps.onchainSchema);
  for (const fill of fills) {
    await withTransaction(pool, async (client) => {
      if (!(await recordRequestFill(client, fill))) return;
      const result = await transitionRequest(client, {
        requestId: fill.requestId,
        to: "success",
        details: { fillTxHash: fill.txHash },
      });
      if (!result.applied)
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

  // Work a crash or a lost job left behind: deposits applied without a fill job, refunds never sent.
  const stranded = [
    ...(await findPendingWithoutFill(pool)),
    ...(await findStaleSubmitted(pool, FILL_RECHECK_AFTER_MS)),
  ];
  const requeueFills = [...new Set(stranded)].filter((id) => !toFill.includes(id));
  for (const requestId of requeueFills) await deps.enqueueFill(requestId);
  const requeueRefunds = [...new Set(await findOpenRefunds(pool, REFUND_REQUEUE_AFTER_MS))].filter(
    (id) => !toRefund.includes(id),
  );
  for (const refundId of requeueRefunds) await deps.enqueueRefund(refundId);
  return {
    deposits: deposits.length,
    fills: fills.length,
    refunds: refunds.length,
    requeued: requeueFills.length + requeueRefunds.length,
  };
}
