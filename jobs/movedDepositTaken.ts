import type { AppliedDeposit } from "../schema/requestDeposits.js";

/**
 * The reorg record of a deposit a reorg mined again in a block whose deposit another request holds already: the payment
 * is that request's now, so this one's is gone (DEPOSIT_REORGED), recorded where it was.
 */
export function movedDepositTaken(
  deposit: Pick<AppliedDeposit, "blockNumber" | "blockHash">,
  context: { source: string; action: string },
): Record<string, unknown> {
  return {
    detectedAt: Date.now(),
    source: context.source,
    reason: "deposit mined in another block",
    failReason: "DEPOSIT_REORGED",
    action: context.action,
    blockNumber: Number(deposit.blockNumber),
    blockHash: deposit.blockHash,
  };
}
