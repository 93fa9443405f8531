export type TimeBucket = { at: Date; count: number; volumeUsd: number };

const STEP_MS = { HOUR: 3_600_000, DAY: 86_400_000 } as const;

/**
 * requestStats' time buckets (only those with requests) as a full series over [from, to): one per UTC hour or day,
 * zero where nothing was created, so a chart's bars are evenly spaced in time.
 */
export function fillBuckets(
  window: { from: Date; to: Date; groupBy: "HOUR" | "DAY" },
  buckets: ReadonlyArray<{ day?: string | null; hour?: string | null; count: number; volumeUsd: string }>,
): TimeBucket[] {
  const step = STEP_MS[window.groupBy];
  const byStart = new Map(
    buckets.map((bucket) => [Date.parse((window.groupBy === "HOUR" ? bucket.hour : bucket.day) ?? ""), bucket]),
  );
  const series: TimeBucket[] = [];
  for (let at = Math.floor(window.from.getTime() / step) * step; at < window.to.getTime(); at += step) {
    const bucket = byStart.get(at);
    series.push({ at: new Date(at), count: bucket?.count ?? 0, volumeUsd: bucket ? Number(bucket.volumeUsd) : 0 });
  }
  return series;
}
