import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoffDelay.js";

describe("backoffDelay", () => {
  const limits = { baseMs: 1_000, maxMs: 60_000 };

  it("doubles from the base per failure in a row up to the cap", () => {
    const top = (failures: number) => backoffDelay(failures, limits, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7].map(top)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
    expect(top(10_000)).toBe(60_000);
  });

  it("jitters within the upper half of the nominal wait", () => {
    expect(backoffDelay(3, limits, () => 0)).toBe(2_000);
    expect(backoffDelay(3, limits, () => 0.5)).toBe(3_000);
    expect(backoffDelay(50, limits, () => 0)).toBe(30_000);
  });
});
