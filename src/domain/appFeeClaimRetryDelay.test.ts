import { describe, expect, it } from "vitest";
import { appFeeClaimRetryDelay } from "./appFeeClaimRetryDelay.js";

describe("appFeeClaimRetryDelay", () => {
  it("doubles from the base and stops at 30 minutes", () => {
    expect([1, 2, 3, 4, 9, 10, 20].map((attempt) => appFeeClaimRetryDelay(attempt))).toEqual([
      10_000, 20_000, 40_000, 80_000, 1_800_000, 1_800_000, 1_800_000,
    ]);
    expect(appFeeClaimRetryDelay(3, 100)).toBe(400);
  });
});
