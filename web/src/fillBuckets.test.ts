import { describe, expect, it } from "vitest";
import { fillBuckets } from "./fillBuckets";

describe("fillBuckets", () => {
  it("lays the answered buckets on every UTC hour of the window, zero in between", () => {
    const series = fillBuckets(
      { from: new Date("2026-11-23T08:30:00Z"), to: new Date("2026-11-23T11:10:00Z"), groupBy: "HOUR" },
      [{ hour: "2026-11-23T10:00:00.000Z", count: 3, volumeUsd: "900.5" }],
    );
    expect(series).toEqual([
      { at: new Date("2026-11-23T08:00:00Z"), count: 0, volumeUsd: 0 },
      { at: new Date("2026-11-23T09:00:00Z"), count: 0, volumeUsd: 0 },
      { at: new Date("2026-11-23T10:00:00Z"), count: 3, volumeUsd: 900.5 },
      { at: new Date("2026-11-23T11:00:00Z"), count: 0, volumeUsd: 0 },
    ]);
  });

  it("does the same by UTC day", () => {
    const series = fillBuckets(
      { from: new Date("2026-11-20T00:00:00Z"), to: new Date("2026-11-23T00:00:00Z"), groupBy: "DAY" },
      [{ day: "2026-11-21T00:00:00.000Z", count: 1, volumeUsd: "10" }],
    );
    expect(series.map((bucket) => bucket.count)).toEqual([0, 1, 0]);
  });
});
