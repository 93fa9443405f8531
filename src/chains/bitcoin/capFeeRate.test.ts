import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_FEE_RATE_SAT_VB, capFeeRate } from "./capFeeRate.js";

describe("capFeeRate", () => {
  it("passes a sane rate through, caps an extreme one, floors a missing or malformed one at 1 sat/vB", () => {
    expect(capFeeRate(12.5, DEFAULT_MAX_FEE_RATE_SAT_VB)).toBe(12.5);
    expect(capFeeRate(10_000, DEFAULT_MAX_FEE_RATE_SAT_VB)).toBe(DEFAULT_MAX_FEE_RATE_SAT_VB);
    expect(capFeeRate(75, 50)).toBe(50);
    for (const bad of [undefined, null, "900", Number.NaN, Number.POSITIVE_INFINITY, -3, 0, 0.2])
      expect(capFeeRate(bad, 50), String(bad)).toBe(1);
  });
});
