/** Summary statistics of a set of samples (milliseconds, usually). */
export type Summary = { count: number; min: number; mean: number; p50: number; p95: number; p99: number; max: number };

/**
 * The p-th percentile (0 < p ≤ 100) of ascending-sorted samples by the nearest-rank method: the smallest
 * sample such that at least p % of the samples are less than or equal to it. Always an observed value.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error("percentile of no samples");
  if (!(p > 0 && p <= 100)) throw new Error(`percentile must be in (0, 100], got ${p}`);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** count, min, mean, p50, p95, p99 and max of the samples (in any order); values rounded to 0.01. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error("summary of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    count: sorted.length,
    min: round(sorted[0]),
    mean: round(mean),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** The middle of the samples (in any order), the mean of the two middle ones for an even count. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error("median of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
