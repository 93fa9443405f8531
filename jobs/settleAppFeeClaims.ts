import type pg from "pg";
import type { Logger } from "pino";
import { findOpenAppFeeClaims, markIndexedAppFeeClaimsPaid } from "../schema/appFeeClaims.js";
import { raiseOperatorAlert } from "../schema/operatorAlerts.js";

// A sent payout not indexed by then is looked at again: re-broadcast (the same bytes) when the node lost it, failed when
// it reverted (payAppFeeClaim).
const RESEND_AFTER_MS = 5_000;

/**
 * One pass of the reconcile tick over app fee claims: payouts the indexer saw mined become `paid`, and claims still
 * waiting (written by the gateway, which queues nothing; or lost with a crashed job) are queued for their payout. A
 * claim failed on its payout's revert that a reorg then paid after all is paid too, with an operator alert: its amount
 * may have been claimed again meanwhile.
 */
export async function settleAppFeeClaims(deps: {
  pool: pg.Pool;
  onchainSchema: string;
  enqueueClaim: (claimId: string) => Promise<void>;
  logger?: Logger;
}): Promise<{ paid: number; queued: number }> {
  const paid = await markIndexedAppFeeClaimsPaid(deps.pool, deps.onchainSchema);
  for (const claim of paid.filter((payout) => payout.wasFailed)) {
    const { wasFailed: _, ...details } = claim;
    if (await raiseOperatorAlert(deps.pool, { kind: "APP_FEE_CLAIM_PAID_AFTER_REVERT", subject: claim.id, details }))
      deps.logger?.error(
        { alert: "APP_FEE_CLAIM_PAID_AFTER_REVERT", ...details },
        "an app fee claim failed on its reverted payout was paid after all (reorg); its amount may be paid twice",
      );
  }
  const open = await findOpenAppFeeClaims(deps.pool, RESEND_AFTER_MS);
  for (const claimId of open) await deps.enqueueClaim(claimId);
  return { paid: paid.length, queued: open.length };
}
