/**
 * How long after a deposit could first be filled the solver still fills it: past this the request is refunded
 * (PROTOCOL_DEADLINE_EXPIRED), as the user has long stopped waiting and the quote's price is long stale.
 */
export const FILL_WINDOW_MS = 10 * 60_000;

/**
 * Blocks are found at random: a wait for confirmations is allowed this many times its expected length (one block
 * taking six times the mean happens about once in 400).
 */
const CONFIRMATION_WAIT_FACTOR = 6;

/**
 * When the solver stops trying to fill a deposit that has its confirmations (unix ms). The deposit was judged on
 * time when it was first seen (mempool or block); its confirmations take as long as the chain's blocks take, so the
 * window starts at the later of the order's deadline and the deposit's block, plus the expected wait for its
 * confirmations: a Bitcoin deposit broadcast on time and confirmed long after the deadline is still filled.
 */
export function fillWindowEnd(args: {
  deadline: Date;
  /** The deposit's block time (seconds), or when it was first seen while it is in the mempool. */
  depositTimestamp: bigint;
  requiredConfirmations: number;
  blockTimeSeconds: number;
}): number {
  const seen = Number(args.depositTimestamp) * 1000;
  const start = Math.max(args.deadline.getTime(), seen);
  const confirmationWait = args.requiredConfirmations * args.blockTimeSeconds * 1000 * CONFIRMATION_WAIT_FACTOR;
  return start + confirmationWait + FILL_WINDOW_MS;
}
