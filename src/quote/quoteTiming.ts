/**
 * A quote's lifetime and `timeEstimate`, from its chains. The deadline judges when the deposit is first seen (mempool
 * or block), so the lifetime is the configured one plus one origin block: on a chain where a payment is seen only
 * once mined, that block is part of paying in time. The estimate is the wait for the deposit's confirmation tier
 * (at least its block) plus the fill's block.
 */
export function quoteTiming(args: {
  ttlSeconds: number;
  originBlockTimeSeconds: number;
  destinationBlockTimeSeconds: number;
  /** The origin chain's confirmations for the quote's value (its tier). */
  confirmations: number;
}): { lifetimeSeconds: number; timeEstimate: number } {
  const depositWait = args.originBlockTimeSeconds * Math.max(1, args.confirmations);
  return {
    lifetimeSeconds: args.ttlSeconds + Math.ceil(args.originBlockTimeSeconds),
    timeEstimate: Math.ceil(depositWait + args.destinationBlockTimeSeconds + 1),
  };
}
