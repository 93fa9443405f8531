/** How long a head may stand still before the chain is reported lagging: ten blocks, and never under 30 s. */
export function lagThresholdMs(blockTimeSeconds: number): number {
  return Math.max(30_000, 10 * blockTimeSeconds * 1000);
}

/**
 * The spec's blockProductionLagging: the indexer has seen no new block for longer than the threshold, or has
 * seen none at all (nothing indexes the chain, so nothing on it progresses either).
 */
export function blockProductionLagging(
  head: { movedAt: Date } | undefined,
  blockTimeSeconds: number,
  now: number,
): boolean {
  return !head || now - head.movedAt.getTime() > lagThresholdMs(blockTimeSeconds);
}
