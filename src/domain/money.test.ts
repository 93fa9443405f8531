import { describe, expect, it } from "vitest";
import { bps, divCeil, formatAmount, parseDecimal, parseUnitsString } from "./money.js";

describe("money", () => {
  it("formats smallest units as decimals without losing precision", () => {
    expect(formatAmount(1_234_500n, 6)).toBe("1.2345");
    expect(formatAmount(1n, 18)).toBe("0.000000000000000001");
    expect(formatAmount(10n ** 30n, 18)).toBe("1000000000000");
    expect(formatAmount(0n, 6)).toBe("0");
    expect(formatAmount(-1_500_000n, 6)).toBe("-1.5");
    expect(formatAmount(42n, 0)).toBe("42");
  });

  it("parses decimals and truncates extra fraction digits", () => {
    expect(parseDecimal("3000.5", 18)).toBe(3_000_500_000_000_000_000_000n);
    expect(parseDecimal("1.2345678", 6)).toBe(1_234_567n);
    expect(() => parseDecimal("1e5", 6)).toThrow();
    expect(() => parseDecimal("-1", 6)).toThrow();
  });

  it("accepts only plain non-negative integer strings as amounts", () => {
    expect(parseUnitsString("1000")).toBe(1000n);
    expect(parseUnitsString("0")).toBe(0n);
    for (const bad of ["-1", "1.5", "1e18", "0x10", " 1", "", "9".repeat(79)])
      expect(parseUnitsString(bad)).toBeUndefined();
  });

  it("rounds up in divCeil and down in bps", () => {
    expect(divCeil(10n, 3n)).toBe(4n);
    expect(divCeil(9n, 3n)).toBe(3n);
    expect(bps(1_000_000n, 5n)).toBe(500n);
    expect(bps(1999n, 5n)).toBe(0n);
  });
});
