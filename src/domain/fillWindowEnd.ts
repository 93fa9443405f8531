/**
 * How long past the wait for its confirmations the solver still fills a deposit made in time: past this the request
 * is refunded, as the user has long stopped waiting and the quote's price is long stale.
 */
export const FILL_WINDOW_MS = 10 * 60_000;

/**
 * Blocks are found at random: the wait for a deposit's confirmations is allowed this many times its expected length
 * (one block taking six times the mean happens about once in 400).
 */
const CONFIRMATION_WAIT_FACTOR = 6;

/**
 * When the solver stops trying to fill a deposit first seen before the order's deadline (unix ms): the deadline, plus
 * the allowed wait for the deposit's confirmations on its chain, plus the fill window. A Bitcoin deposit broadcast in
 * time is filled however long its block takes within that allowance (one block: an hour on a 10-minute chain). The
 * bound does not move with the deposit's block: a payer choosing a fee too low to be mined soon would otherwise hold
 * an option on the quoted price for as long as the payment waits in the mempool.
 */
export function fillWindowEnd(args: {
  deadline: Date;
  requiredConfirmations: number;
  blockTimeSeconds: number;
}): number {
  const confirmationWait = args.requiredConfirmations * args.blockTimeSeconds * 1000 * CONFIRMATION_WAIT_FACTOR;
  return args.deadline.getTime() + confirmationWait + FILL_WINDOW_MS;
}
