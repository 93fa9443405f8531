import { describe, expect, it } from "vitest";
import { requiredConfirmations } from "./requiredConfirmations.js";

const usd = (value: bigint) => value * 10n ** 18n;

describe("requiredConfirmations", () => {
  const tiers = [
    { minUsd: "0", blocks: 1 },
    { minUsd: "10000", blocks: 6 },
    { minUsd: "1000.5", blocks: 3 },
  ];

  it("applies the strictest tier the value reaches", () => {
    expect(requiredConfirmations(tiers, usd(5n))).toBe(1);
    expect(requiredConfirmations(tiers, usd(1000n))).toBe(1);
    expect(requiredConfirmations(tiers, usd(1001n))).toBe(3);
    expect(requiredConfirmations(tiers, usd(10_000n))).toBe(6);
  });

  it("asks for nothing without tiers", () => {
    expect(requiredConfirmations([], usd(1_000_000n))).toBe(0);
  });
});
