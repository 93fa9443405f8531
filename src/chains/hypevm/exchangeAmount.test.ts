import { describe, expect, it } from "vitest";
import { formatExchangeAmount, parseExchangeAmount } from "./exchangeAmount.js";

describe("parseExchangeAmount", () => {
  it("reads decimals exactly at the token's precision", () => {
    expect(parseExchangeAmount("1.5", 8)).toBe(150_000_000n);
    expect(parseExchangeAmount("0.00000001", 8)).toBe(1n);
    expect(parseExchangeAmount("12", 8)).toBe(1_200_000_000n);
    expect(parseExchangeAmount("1.50000000000", 8)).toBe(150_000_000n);
  });

  it("refuses what it would have to round or guess", () => {
    for (const bad of ["0.000000001", "-1", "1e3", "0x10", "", ".5", "1.", " 1", "1,5"])
      expect(parseExchangeAmount(bad, 8), bad).toBeUndefined();
  });
});

describe("formatExchangeAmount", () => {
  it("writes the exchange's decimal strings", () => {
    expect(formatExchangeAmount(150_000_000n, 8)).toBe("1.5");
    expect(formatExchangeAmount(0n, 8)).toBe("0.0");
    expect(formatExchangeAmount(1n, 8)).toBe("0.00000001");
    expect(formatExchangeAmount(-250_000_000n, 8)).toBe("-2.5");
  });
});
