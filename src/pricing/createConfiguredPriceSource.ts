import { createPriceChain } from "./createPriceChain.js";
import type { PriceFeed } from "./priceFeed.js";
import type { PriceSettings } from "./priceSettings.js";
import { type PriceSource, priceSourceOf } from "./priceSource.js";
import { createPythPriceFeed } from "./pyth/createPythPriceFeed.js";
import { createStaticPriceFeed } from "./staticPriceFeed.js";

/** After a failure a source rests 1 s, doubling up to 30 s (Hermes' public limit is 30 requests per 10 s an address). */
const BACKOFF = { baseMs: 1_000, maxMs: 30_000 };

/** A role's price layer from its settings (src/rolePrices.ts): one per process, shared by every quote and job in it. */
export function createConfiguredPriceSource(settings: PriceSettings, now: () => number = Date.now): PriceSource {
  const feeds = settings.sources.map((source): PriceFeed => {
    if (source.kind === "static") return createStaticPriceFeed(source.prices, now);
    return createPythPriceFeed(source);
  });
  const isStatic = settings.sources.every((source) => source.kind === "static");
  return priceSourceOf(
    createPriceChain({
      feeds,
      // The table is always current by definition (it is alone in its chain): it is read once and never ages.
      maxAgeMs: isStatic
        ? () => Number.POSITIVE_INFINITY
        : (key) => (settings.maxAgeSecondsBySymbol[key] ?? settings.maxAgeSeconds) * 1000,
      deviationBps: settings.deviationBps,
      timeoutMs: settings.timeoutMs,
      refreshMs: isStatic ? Number.POSITIVE_INFINITY : settings.refreshMs,
      backoff: BACKOFF,
      now,
    }),
  );
}
