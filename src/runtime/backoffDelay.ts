/**
 * The wait after the `failures`-th failure in a row (1, 2, …): base × 2^(failures−1), capped at `maxMs`, then a random
 * point in its upper half, so processes that failed together (one RPC down for all) do not retry in step.
 */
export function backoffDelay(
  failures: number,
  limits: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const nominal = Math.min(limits.maxMs, limits.baseMs * 2 ** Math.min(failures - 1, 52));
  return Math.round(nominal / 2 + (nominal / 2) * random());
}
