import { describe, expect, it } from "vitest";
import { swapImpactUsdE18 } from "./swapImpactUsdE18.js";

const usd = (dollars: bigint) => dollars * 10n ** 18n;

describe("swapImpactUsdE18", () => {
  it("is zero when the output is the input less the fees the user pays", () => {
    expect(swapImpactUsdE18({ usdIn: usd(100n), usdOut: usd(97n), feesUsd: usd(3n), sponsoredUsd: 0n })).toBe(0n);
    // The sponsor's share stays with the user.
    expect(swapImpactUsdE18({ usdIn: usd(100n), usdOut: usd(99n), feesUsd: usd(3n), sponsoredUsd: usd(2n) })).toBe(0n);
  });

  it("shows what the conversion loses or gains beyond the fees", () => {
    expect(swapImpactUsdE18({ usdIn: usd(100n), usdOut: usd(96n), feesUsd: usd(3n), sponsoredUsd: 0n })).toBe(-usd(1n));
    expect(swapImpactUsdE18({ usdIn: usd(100n), usdOut: usd(97n) + 5n, feesUsd: usd(3n), sponsoredUsd: 0n })).toBe(5n);
  });
});
