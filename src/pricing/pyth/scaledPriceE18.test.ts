import { describe, expect, it } from "vitest";
import { scaledPriceE18 } from "./scaledPriceE18.js";

describe("scaledPriceE18", () => {
  it("scales Pyth's negative exponents, 8 and 18 decimals, positive exponents and more than 18 decimals", () => {
    // ETH at 3,012.34567891 with expo -8, as Hermes sends it.
    expect(scaledPriceE18(301234567891n, -8)).toBe(3012345678910000000000n);
    // 18 decimals: unchanged.
    expect(scaledPriceE18(3000n * 10n ** 18n, -18)).toBe(3000n * 10n ** 18n);
    // USDC at 0.99995 with expo -5.
    expect(scaledPriceE18(99995n, -5)).toBe(999950000000000000n);
    expect(scaledPriceE18(3n, 2)).toBe(300n * 10n ** 18n);
    // 20 decimals: the last two digits are dropped, not rounded.
    expect(scaledPriceE18(123456789012345678999n, -20)).toBe(1234567890123456789n);
    expect(scaledPriceE18(0n, -8)).toBe(0n);
    expect(scaledPriceE18(-5n, -8)).toBe(-50000000000n);
  });
});
