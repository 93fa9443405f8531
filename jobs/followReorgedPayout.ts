import { getFillAttempt } from "../schema/fillAttempts.js";
import type { FillContext } from "./fillDeps.js";

/**
 * A payout mined (the request succeeded) and then reorged out: followed as a sent fill is, so the same signed
 * payout (or its fee bump, on the same inputs) is broadcast again while it is missing and its inputs are unspent,
 * and never a second payout. The request stays `success`; reconcile queues this again until the payout is applied
 * anew.
 */
export async function followReorgedPayout(context: FillContext, requestId: string): Promise<string> {
  const { logger } = context;
  const attempt = (await getFillAttempt(context.pool, requestId))!;
  const outcome = await context.adapters.solver(attempt.chainId).followFill(attempt, {
    ledger: context.ledger,
    policy: context.policy,
  });
  if (outcome.state === "mined") {
    logger.info({ requestId, txHash: outcome.txHash }, "reorged payout mined again");
    return `payout mined again: ${outcome.txHash}`;
  }
  if (outcome.state === "in-flight") {
    logger.warn({ requestId, txHash: outcome.txHash, action: outcome.action }, "reorged payout broadcast again");
    return `payout ${outcome.action}: ${outcome.txHash}`;
  }
  // Its inputs were spent by something else than a version of it, or it can no longer be mined: no second payout
  // is ever made; an operator must look.
  logger.error({ requestId, outcome }, "reorged payout cannot be broadcast again; operator action needed");
  return `payout lost: ${outcome.state}`;
}
