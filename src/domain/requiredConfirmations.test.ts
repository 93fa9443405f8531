import { describe, expect, it } from "vitest";
import { type DepositValue, requiredConfirmations } from "./requiredConfirmations.js";

const usd = (value: bigint) => value * 10n ** 18n;
const BTC = { symbol: "BTC", decimals: 8 };
const worth = (usdE18: bigint | undefined, amount = 0n, currency: DepositValue["currency"] = BTC): DepositValue => ({
  usdE18,
  amount,
  currency,
});

describe("requiredConfirmations", () => {
  const tiers = [
    { minUsd: "0", blocks: 1 },
    { minUsd: "10000", blocks: 6 },
    { minUsd: "1000.5", blocks: 3 },
  ];

  it("applies the strictest tier the value reaches", () => {
    expect(requiredConfirmations(tiers, worth(usd(5n)))).toBe(1);
    expect(requiredConfirmations(tiers, worth(usd(1000n)))).toBe(1);
    expect(requiredConfirmations(tiers, worth(usd(1001n)))).toBe(3);
    expect(requiredConfirmations(tiers, worth(usd(10_000n)))).toBe(6);
  });

  it("asks for nothing without tiers", () => {
    expect(requiredConfirmations([], worth(usd(1_000_000n)))).toBe(0);
  });

  it("takes the strictest USD tier for a value it cannot know", () => {
    expect(requiredConfirmations(tiers, worth(undefined))).toBe(6);
  });

  describe("per-currency thresholds of the origin amount, in the currency's own units", () => {
    const bitcoin = [{ blocks: 1 }, { minAmounts: { BTC: "0.5" }, blocks: 2 }];

    it("reaches the tier at the amount, whatever the price", () => {
      expect(requiredConfirmations(bitcoin, worth(usd(1_000_000n), 49_999_999n))).toBe(1);
      expect(requiredConfirmations(bitcoin, worth(usd(1n), 50_000_000n))).toBe(2);
      // No price needed: an amount tier does not take the strictest rule for an unknown value.
      expect(requiredConfirmations(bitcoin, worth(undefined, 1n))).toBe(1);
    });

    it("a currency without an entry, or one the chain does not list, is judged by the other tiers only", () => {
      const mixed = [...bitcoin, { minUsd: "10000", blocks: 3 }];
      const usdc = { symbol: "USDC", decimals: 6 };
      expect(requiredConfirmations(mixed, worth(usd(20n), 10n ** 12n, usdc))).toBe(1);
      expect(requiredConfirmations(mixed, worth(usd(20_000n), 1n, usdc))).toBe(3);
      expect(requiredConfirmations(mixed, { usdE18: usd(1n), amount: 10n ** 12n, currency: undefined })).toBe(1);
    });
  });
});
