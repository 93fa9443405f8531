import { describe, expect, it } from "vitest";
import { median, percentile, summarize } from "./percentiles.js";

describe("percentile (nearest rank)", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it("returns the sample at rank ceil(p/100 · n)", () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0.5)).toBe(1);
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
    expect(percentile([10, 20, 30, 40], 51)).toBe(30);
  });

  it("handles a single sample and rejects bad input", () => {
    expect(percentile([7], 1)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
    expect(() => percentile([], 50)).toThrow();
    expect(() => percentile([1], 0)).toThrow();
    expect(() => percentile([1], 101)).toThrow();
  });
});

describe("summarize", () => {
  it("sorts a copy and reports the usual statistics", () => {
    const samples = [5, 1, 4, 2, 3];
    expect(summarize(samples)).toEqual({ count: 5, min: 1, mean: 3, p50: 3, p95: 5, p99: 5, max: 5 });
    expect(samples).toEqual([5, 1, 4, 2, 3]);
  });

  it("rounds to hundredths", () => {
    expect(summarize([1 / 3, 2 / 3]).mean).toBe(0.5);
    expect(summarize([1 / 3]).p50).toBe(0.33);
  });

  it("rejects no samples", () => {
    expect(() => summarize([])).toThrow();
  });
});

describe("median", () => {
  it("is the middle sample, or the mean of the two middle ones, whatever the order", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow();
  });
});
