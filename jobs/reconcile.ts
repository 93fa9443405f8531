import type pg from "pg";
import type { Logger } from "pino";
import { findUnappliedDeposits, findUnappliedFills, recordRequestDeposit, recordRequestFill } from "../schema/chainFacts.js";
import { findPendingWithoutFill } from "../schema/fillAttempts.js";
import { getRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { assessDeposit } from "../src/domain/assessDeposit.js";

export type ReconcileDeps = {
  pool: pg.Pool;
  onchainSchema: string;
  enqueueFill: (requestId: string) => Promise<void>;
  logger: Logger;
};

export type ReconcileResult = { deposits: number; fills: number; requeued: number };

/**
 * One pass over chain facts not yet applied to requests: deposits move `waiting` requests to `pending`
 * (or `failure` when the deposit does not match the order), indexed fills move them to `success`.
 * Every step is keyed in Postgres, so running it twice, or on two workers at once, changes nothing.
 */
export async function reconcile(deps: ReconcileDeps): Promise<ReconcileResult> {
  const { pool, logger } = deps;
  const toFill: string[] = [];
  const deposits = await findUnappliedDeposits(pool, deps.onchainSchema);
  for (const deposit of deposits) {
    await withTransaction(pool, async (client) => {
      if (!(await recordRequestDeposit(client, deposit))) return;
      const request = await getRequest(client, deposit.requestId, { forUpdate: true });
      if (!request || request.status !== "waiting") {
        // A further deposit on a request already under way: recorded, and left to the double-spend handling.
        logger.warn({ requestId: deposit.requestId, txHash: deposit.txHash, status: request?.status }, "deposit for a request no longer waiting");
        return;
      }
      const assessment = assessDeposit(request, deposit);
      const details = { depositTxHash: deposit.txHash, depositChainId: deposit.chainId, depositedAmount: deposit.amount.toString() };
      if (assessment.fill) {
        await transitionRequest(client, { requestId: request.id, to: "pending", details });
        toFill.push(request.id);
      } else {
        await transitionRequest(client, { requestId: request.id, to: "failure", failReason: assessment.failReason, details });
      }
    });
  }

  const fills = await findUnappliedFills(pool, deps.onchainSchema);
  for (const fill of fills) {
    await withTransaction(pool, async (client) => {
      if (!(await recordRequestFill(client, fill))) return;
      const result = await transitionRequest(client, { requestId: fill.requestId, to: "success", details: { fillTxHash: fill.txHash } });
      if (!result.applied) logger.warn({ requestId: fill.requestId, status: result.current }, "fill indexed for a request that cannot succeed");
    });
  }

  // A deposit applied just before a crash may never have had its fill job queued.
  const stranded = await findPendingWithoutFill(pool);
  const requeue = [...new Set([...toFill, ...stranded])];
  for (const requestId of requeue) await deps.enqueueFill(requestId);
  return { deposits: deposits.length, fills: fills.length, requeued: requeue.length - toFill.length };
}
