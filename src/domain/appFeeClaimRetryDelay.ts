/** Refused payouts of one claim before it fails and its amount returns to the balance (APP_FEE_CLAIM_MAX_ATTEMPTS). */
export const APP_FEE_CLAIM_MAX_ATTEMPTS = 10;
/** The first retry's delay (APP_FEE_CLAIM_RETRY_BASE_MS); each next one doubles, up to 30 minutes. */
export const APP_FEE_CLAIM_RETRY_BASE_MS = 10_000;
const MAX_DELAY_MS = 30 * 60_000;

/**
 * Delay before the payout attempt that follows refused attempt `attempt` (1…): base × 2^(attempt−1), at most 30 min.
 * With the defaults: 10 s, 20 s, 40 s, 80 s, 160 s, 320 s, 640 s, 1280 s, 1800 s — the tenth refusal fails the claim
 * about 72 minutes after the first, time for an operator to top the Depository up.
 */
export function appFeeClaimRetryDelay(attempt: number, baseMs = APP_FEE_CLAIM_RETRY_BASE_MS): number {
  return Math.min(baseMs * 2 ** (attempt - 1), MAX_DELAY_MS);
}
