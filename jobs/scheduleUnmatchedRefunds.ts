import type pg from "pg";
import type { Logger } from "pino";
import {
  type DepositOutpoint,
  type UnmatchedRefundRule,
  findOpenUnmatchedRefunds,
  queueUnmatchedRefunds,
} from "../schema/unmatchedRefunds.js";

export type UnmatchedRefundSchedulerDeps = {
  pool: pg.Pool;
  /** Each Bitcoin chain's `refundUnmatchedAfterBlocks`. */
  rules: readonly UnmatchedRefundRule[];
  enqueue: (deposit: DepositOutpoint) => Promise<void>;
  logger: Logger;
  /** The pass runs at most this often, however often it is called (the reconcile tick is 100 ms). */
  everyMs?: number;
  /** A refund not sent, or not seen mined, by then is queued again (a lost job, a crash). */
  recheckAfterMs?: number;
};

/**
 * The worker's pass over deposits to the depository that named no request: those old enough are queued for their
 * refund (one row per outpoint in Postgres, so two workers queue each once) and a job is enqueued for each, with the
 * refunds left open by a lost job or a crash. Returns the pass, which answers how many refunds it queued.
 */
export function scheduleUnmatchedRefunds(deps: UnmatchedRefundSchedulerDeps): () => Promise<number> {
  const { everyMs = 1_000, recheckAfterMs = 10_000 } = deps;
  let lastRun = -Infinity;
  return async () => {
    if (deps.rules.length === 0 || Date.now() - lastRun < everyMs) return 0;
    lastRun = Date.now();
    const queued = await queueUnmatchedRefunds(deps.pool, deps.rules);
    for (const refund of queued) {
      deps.logger.info(
        {
          chainId: refund.chainId,
          depositTxHash: refund.txHash,
          depositPosition: refund.position,
          depositor: refund.recipient,
          deposited: refund.deposited.toString(),
        },
        "deposit named no request: refund queued",
      );
      await deps.enqueue({ chainId: refund.chainId, txHash: refund.txHash, position: refund.position });
    }
    for (const open of await findOpenUnmatchedRefunds(deps.pool, recheckAfterMs)) await deps.enqueue(open);
    return queued.length;
  };
}
