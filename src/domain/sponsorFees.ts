/** The fee buckets a sponsor may pay, in the order a cap is spent on them (`relay` is the service's fee). */
export const FEE_COMPONENTS = ["execution", "swap", "relay", "app", "rent"] as const;
export type FeeComponent = (typeof FEE_COMPONENTS)[number];

/**
 * What `subsidizeFees: true` sponsors when `sponsoredFeeComponents` is not given: rent stays with the user, and so do
 * app fees, which a sponsor pays only when it names `app` (its recipients earn them: a sponsor paying them pays
 * integrators, at most SPONSORED_APP_FEE_MAX_BPS of the input).
 */
export const DEFAULT_SPONSORED_COMPONENTS: readonly FeeComponent[] = ["execution", "swap", "relay"];

/** The default of SPONSORED_APP_FEE_MAX_BPS (config): the most app fees a quote whose sponsor pays `app` may carry. */
export const DEFAULT_SPONSORED_APP_FEE_MAX_BPS = 100n;

export type SponsorshipTerms = {
  components: readonly FeeComponent[];
  /** The share of each selected bucket, 0–10000; 10000 unless the quote set `subsidizationBps`. */
  bps: bigint;
  /** `maxSubsidizationAmount`: the most the sponsor pays in all, USD micro-units; none without one. */
  capMicroUsd: bigint | undefined;
};

export type SponsoredFees = {
  /** Per bucket, in the input currency's smallest unit. */
  sponsored: Record<FeeComponent, bigint>;
  total: bigint;
  /** What the sponsor is charged: the sum of each bucket's USD value, micro-units, rounded down. */
  totalMicroUsd: bigint;
  capHit: boolean;
};

/**
 * Splits the fees between sponsor and user: each selected bucket's `bps` share, truncated per bucket; then the cap,
 * spent on the buckets in FEE_COMPONENTS order (a bucket that no longer fits gets what is left of it, rounded down).
 * `microUsdOf` and `amountOfMicroUsd` convert at the quote's price, both rounding down, so the sponsor's USD never
 * exceeds the cap.
 */
export function sponsorFees(
  totals: Record<FeeComponent, bigint>,
  terms: SponsorshipTerms,
  microUsdOf: (amount: bigint) => bigint,
  amountOfMicroUsd: (microUsd: bigint) => bigint,
): SponsoredFees {
  let left = terms.capMicroUsd;
  let capHit = false;
  let total = 0n;
  let totalMicroUsd = 0n;
  const sponsored = {} as Record<FeeComponent, bigint>;
  for (const component of FEE_COMPONENTS) {
    let amount = terms.components.includes(component) ? (totals[component] * terms.bps) / 10_000n : 0n;
    if (left !== undefined && amount > 0n && microUsdOf(amount) > left) {
      amount = amountOfMicroUsd(left);
      capHit = true;
    }
    const microUsd = microUsdOf(amount);
    if (left !== undefined) left -= microUsd;
    sponsored[component] = amount;
    total += amount;
    totalMicroUsd += microUsd;
  }
  return { sponsored, total, totalMicroUsd, capHit };
}
