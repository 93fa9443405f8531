import type { PriceFeed } from "../priceFeed.js";
import type { PriceObservation } from "../priceObservation.js";
import { fetchHermesPrices, hermesFeedId } from "./fetchHermesPrices.js";
import { scaledPriceE18 } from "./scaledPriceE18.js";

/**
 * Pyth over Hermes' HTTP API as a price source: every configured symbol's feed in one request. A price at or below
 * zero, or whose confidence interval is wider than `maxConfidenceBps` of it, is no answer; `publish_time` is the
 * observation time the layer judges freshness by.
 */
export function createPythPriceFeed(options: {
  hermesUrl: string;
  feedIds: Readonly<Record<string, string>>;
  maxConfidenceBps: bigint;
}): PriceFeed {
  const symbolsById = new Map<string, string[]>();
  for (const [symbol, id] of Object.entries(options.feedIds)) {
    const key = hermesFeedId(id);
    symbolsById.set(key, [...(symbolsById.get(key) ?? []), symbol.toUpperCase()]);
  }
  return {
    name: "pyth",
    keys: new Set(Object.keys(options.feedIds).map((symbol) => symbol.toUpperCase())),
    async fetch(keys, signal) {
      const wanted = new Set(keys);
      const ids = [...symbolsById].filter(([, symbols]) => symbols.some((s) => wanted.has(s))).map(([id]) => id);
      const answers = new Map<string, PriceObservation>();
      if (ids.length === 0) return answers;
      for (const feed of await fetchHermesPrices(options.hermesUrl, ids, signal)) {
        if (feed.price <= 0n || feed.conf * 10_000n > options.maxConfidenceBps * feed.price) continue;
        const observation = {
          priceE18: scaledPriceE18(feed.price, feed.expo),
          observedAt: feed.publishTime * 1000,
          source: "pyth",
        };
        for (const symbol of symbolsById.get(feed.id) ?? []) if (wanted.has(symbol)) answers.set(symbol, observation);
      }
      return answers;
    },
  };
}
