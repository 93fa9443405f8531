import { parseDecimal } from "../domain/money.js";
import type { PriceFeed } from "./priceFeed.js";
import type { PriceObservation } from "./priceObservation.js";

/** A table of USD prices by symbol (PRICES) as a source: observed whenever it is read. Devnet and tests only. */
export function createStaticPriceFeed(
  pricesBySymbol: Readonly<Record<string, string>>,
  now: () => number = Date.now,
): PriceFeed {
  const prices = new Map(
    Object.entries(pricesBySymbol).map(([symbol, usd]) => [symbol.toUpperCase(), parseDecimal(usd, 18)]),
  );
  return {
    name: "static",
    keys: new Set(prices.keys()),
    async fetch(keys) {
      const observedAt = now();
      const answers = new Map<string, PriceObservation>();
      for (const key of keys) {
        const priceE18 = prices.get(key);
        if (priceE18 !== undefined) answers.set(key, { priceE18, observedAt, source: "static" });
      }
      return answers;
    },
  };
}
