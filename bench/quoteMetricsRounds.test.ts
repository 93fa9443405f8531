import { describe, expect, it } from "vitest";
import { type MetricsRound, metricsOverhead, metricsTargets } from "./quoteMetricsRounds.js";

const round = (
  round: number,
  mode: "off" | "on",
  quotesPerSecond: number,
  p50Ms: number,
  cpuUsPerQuote = 2000,
): MetricsRound => ({
  round,
  mode,
  quotesPerSecond,
  p50Ms,
  completed: quotesPerSecond * 5,
  errors: 0,
  cpuUsPerQuote,
});

describe("metricsOverhead", () => {
  it("compares each round with metrics against the same round without, the median of those", () => {
    const overhead = metricsOverhead(64, 5000, 1000, [
      round(1, "off", 1000, 10, 2000),
      round(1, "on", 980, 10.5, 2040),
      // the machine got busier: both slower, the pair still 1 % apart
      round(2, "on", 792, 12.6, 2020),
      round(2, "off", 800, 12, 2000),
      round(3, "off", 1000, 10, 2000),
      round(3, "on", 900, 11, 2100),
    ]);
    expect(overhead.byMode.on).toMatchObject({
      medianQuotesPerSecond: 900,
      medianP50Ms: 11,
      pairedCostPercent: 2,
      pairedP50CostPercent: 5,
      pairedCpuCostPercent: 2,
      medianCpuUsPerQuote: 2040,
      roundsQuotesPerSecond: [980, 792, 900],
    });
    expect(overhead.byMode.off).toMatchObject({ pairedCostPercent: 0, pairedP50CostPercent: 0 });
    expect(metricsTargets(overhead)).toEqual([
      expect.objectContaining({ target: "< 3", measured: 2, met: true }),
      expect.objectContaining({ target: "< 3", measured: 2, met: true }),
    ]);
  });

  it("misses the target when metrics cost 3 % or more", () => {
    const overhead = metricsOverhead(64, 5000, 1000, [round(1, "off", 1000, 10, 2000), round(1, "on", 970, 10, 2060)]);
    expect(metricsTargets(overhead)).toMatchObject([
      { measured: 3, met: false },
      { measured: 3, met: false },
    ]);
  });
});
