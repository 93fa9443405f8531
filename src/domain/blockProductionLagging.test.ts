import { describe, expect, it } from "vitest";
import { blockProductionLagging, lagThresholdMs } from "./blockProductionLagging.js";

describe("blockProductionLagging", () => {
  const now = Date.UTC(2026, 10, 23);
  const movedAgo = (ms: number) => ({ movedAt: new Date(now - ms) });

  it("is false while the head moves, true once it stood still longer than ten blocks (at least 30 s)", () => {
    expect(lagThresholdMs(1)).toBe(30_000);
    expect(lagThresholdMs(12)).toBe(120_000);
    expect(blockProductionLagging(movedAgo(29_000), 1, now)).toBe(false);
    expect(blockProductionLagging(movedAgo(31_000), 1, now)).toBe(true);
    expect(blockProductionLagging(movedAgo(100_000), 12, now)).toBe(false);
    expect(blockProductionLagging(movedAgo(121_000), 12, now)).toBe(true);
  });

  it("is true for a chain whose head the indexer never saw", () => {
    expect(blockProductionLagging(undefined, 1, now)).toBe(true);
  });
});
