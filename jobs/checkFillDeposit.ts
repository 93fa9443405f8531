import { type AppliedDeposit, markDepositReorged, moveAppliedDeposit } from "../schema/requestDeposits.js";
import type { StoredRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { fillWindowEnd } from "../src/domain/fillWindowEnd.js";
import { confirmationDelayMs } from "./confirmationDelayMs.js";
import { failFill } from "./failFill.js";
import type { FillContext } from "./fillDeps.js";
import { movedDepositTaken } from "./movedDepositTaken.js";
import { requiredDepositConfirmations } from "./requiredDepositConfirmations.js";

/**
 * The deposit's phase of a fill: the request's first deposit must have its confirmations and still be where it was
 * applied. Returns the end of the fill window once it is, or the job's result when the fill stops here (confirming:
 * queued again; moved by a reorg: followed; reorged out or too slow: failed).
 */
export async function checkFillDeposit(
  context: FillContext,
  request: StoredRequest,
  first: AppliedDeposit,
): Promise<{ windowEnd: number } | string> {
  const { pool, logger } = context;
  const requestId = request.id;
  const origin = context.adapters.deposits(first.chainId);
  const required = await requiredDepositConfirmations(first, {
    deposits: origin,
    registry: context.registry,
    prices: context.prices,
  });
  // The deposit was judged on time when first seen (mempool or block); it is filled once it has its confirmations,
  // within the chain's allowance for that wait (Bitcoin's 10-minute blocks are not held against it).
  const windowEnd = fillWindowEnd({
    deadline: request.deadline,
    requiredConfirmations: required,
    blockTimeSeconds: origin.chain.blockTimeSeconds,
  });
  let check = await origin.checkDeposit(first, required);
  if (check.state === "confirming" && Date.now() > windowEnd) {
    return failFill(
      context,
      request,
      "DEPOSIT_CONFIRMATION_TIMEOUT",
      {
        message: `the deposit still lacked ${check.missingBlocks} confirmations at ${new Date(windowEnd).toISOString()}`,
      },
      { sent: false },
    );
  }
  if (check.state === "confirming") {
    await context.enqueueFill(requestId, {
      delayMs: confirmationDelayMs(origin, check.missingBlocks),
      key: `${first.blockNumber + BigInt(check.missingBlocks)}`,
    });
    return `confirming: ${check.missingBlocks} blocks to go`;
  }
  // The same payment, mined again by a reorg: the request follows it, and its fill waits for its confirmations
  // there. One that cannot be moved (that block's deposit is another request's already) fails as reorged out.
  if (check.state === "moved" && (await moveAppliedDeposit(pool, requestId, first, check.to))) {
    logger.warn(
      { requestId, txHash: first.txHash, from: first.blockHash, to: check.to.blockHash },
      "deposit mined again in another block; following it",
    );
    await context.enqueueFill(requestId, { delayMs: 200, key: `moved-${check.to.blockHash}` });
    return `moved: deposit now in block ${check.to.blockNumber}`;
  }
  if (check.state === "moved") {
    check = { state: "reorged", reorg: movedDepositTaken(first, { source: "fill-check", action: "fill" }) };
  }
  if (check.state === "reorged") {
    // Nothing arrived, so nothing is refunded and nothing is filled.
    const failReason = check.failReason ?? "DEPOSIT_REORGED";
    const { reorg } = check;
    await withTransaction(pool, async (db) => {
      await markDepositReorged(db, first, reorg);
      await transitionRequest(db, { requestId, from: ["pending"], to: "failure", failReason, details: reorg });
    });
    logger.warn({ requestId, txHash: first.txHash, reorg }, "deposit gone before the fill");
    return `failed: ${failReason}`;
  }
  return { windowEnd };
}
