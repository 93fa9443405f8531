/** One integrator's share of a request's input: paid to `recipient` (an EVM address) when the request is filled. */
export type AppFee = { recipient: string; bps: bigint };

/** Each recipient's fee on an input amount, rounded down (the rounding stays with the user's output). */
export function splitAppFees(amountIn: bigint, fees: readonly AppFee[]): bigint[] {
  return fees.map((fee) => (amountIn * fee.bps) / 10_000n);
}
