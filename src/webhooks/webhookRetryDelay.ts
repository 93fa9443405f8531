/** Attempts after the first (the spec: up to 10 retries). */
export const WEBHOOK_MAX_RETRIES = 10;
/** First retry one minute after the first failure (in production; tests shrink it). */
export const WEBHOOK_RETRY_BASE_MS = 60_000;
const FACTOR = 2.2;
const JITTER = 0.2;

/**
 * Delay before retry `retry` (1…10): base × 2.2^(retry−1), ±20 % jitter so receivers coming back up are not hit by
 * every delivery at once. With the 1 min base: 1 m, 2.2 m, 4.8 m, 10.6 m, 23 m, 51 m, 1.9 h, 4.1 h, 9.1 h, 20 h —
 * 36.9 h in all (29.5 h at the least, jitter included): a receiver down for a day still gets everything.
 */
export function webhookRetryDelay(
  retry: number,
  baseMs = WEBHOOK_RETRY_BASE_MS,
  random: () => number = Math.random,
): number {
  const nominal = baseMs * FACTOR ** (retry - 1);
  return Math.round(nominal * (1 - JITTER + 2 * JITTER * random()));
}
