import type pg from "pg";
import { findOpenAppFeeClaims, markIndexedAppFeeClaimsPaid } from "../schema/appFeeClaims.js";

// A sent payout not indexed by then is looked at again: re-broadcast (the same bytes) when the node lost it, failed when
// it reverted (payAppFeeClaim).
const RESEND_AFTER_MS = 5_000;

/**
 * One pass of the reconcile tick over app fee claims: payouts the indexer saw mined become `paid`, and claims still
 * waiting (written by the gateway, which queues nothing; or lost with a crashed job) are queued for their payout.
 */
export async function settleAppFeeClaims(deps: {
  pool: pg.Pool;
  onchainSchema: string;
  enqueueClaim: (claimId: string) => Promise<void>;
}): Promise<{ paid: number; queued: number }> {
  const paid = await markIndexedAppFeeClaimsPaid(deps.pool, deps.onchainSchema);
  const open = await findOpenAppFeeClaims(deps.pool, RESEND_AFTER_MS);
  for (const claimId of open) await deps.enqueueClaim(claimId);
  return { paid: paid.length, queued: open.length };
}
