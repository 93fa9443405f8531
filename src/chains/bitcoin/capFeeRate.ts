/** The highest fee rate (sat/vB) paid unless configured otherwise: above any sustained mainnet peak so far. */
export const DEFAULT_MAX_FEE_RATE_SAT_VB = 500;

/**
 * A fee rate read from Esplora (`/fee-estimates`), as it may be spent: at least 1 sat/vB (the relay minimum; also for
 * a missing or malformed answer) and at most `max`. Esplora is a third party: an answer of 10,000 sat/vB, by fault or
 * by attack, would otherwise spend the solver's and the depository's funds on fees (payouts, bumps, sweeps, refunds).
 */
export function capFeeRate(rate: unknown, max: number): number {
  if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 1) return 1;
  return Math.min(rate, max);
}
