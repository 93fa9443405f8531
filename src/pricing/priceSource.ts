import type { Currency } from "../chains/chainRegistry.js";
import { type PriceChain, createPriceChain } from "./createPriceChain.js";
import type { PriceObservation } from "./priceObservation.js";
import { priceKeyOf } from "./priceKeyOf.js";
import { createStaticPriceFeed } from "./staticPriceFeed.js";

/** The price layer as its readers see it (quotes, USD values, fee conversions, confirmation tiers, refunds). */
export type PriceSource = {
  /**
   * The fresh prices of currencies, in order, read together (one round trip per source for all of them). Throws
   * UNSUPPORTED_CURRENCY (400) for a currency no source prices, PRICE_FETCH_FAILED (503, retryable) when one has no
   * fresh price or its sources disagree.
   */
  pricesOf(currencies: readonly Pick<Currency, "symbol">[]): Promise<PriceObservation[]>;
  /** One currency's fresh USD price (1e18); undefined when no source prices it, PRICE_FETCH_FAILED when none is fresh. */
  usdPriceE18(currency: Pick<Currency, "symbol">): Promise<bigint | undefined>;
};

/** The price layer over a chain of sources. */
export function priceSourceOf(chain: PriceChain): PriceSource {
  return {
    pricesOf: (currencies) => chain.prices(currencies.map(priceKeyOf)),
    async usdPriceE18(currency) {
      const key = priceKeyOf(currency);
      if (!chain.supports(key)) return undefined;
      const [observation] = await chain.prices([key]);
      return observation.priceE18;
    },
  };
}

/**
 * Prices from a fixed table by symbol, always fresh: the devnet's and tests' source, chosen explicitly
 * (PRICE_SOURCES=static), never a fallback behind a live one.
 */
export function createStaticPriceSource(pricesBySymbol: Readonly<Record<string, string>>): PriceSource {
  return priceSourceOf(
    createPriceChain({
      feeds: [createStaticPriceFeed(pricesBySymbol)],
      maxAgeMs: () => Number.POSITIVE_INFINITY,
      deviationBps: 0n,
      timeoutMs: 1_000,
      refreshMs: Number.POSITIVE_INFINITY,
      backoff: { baseMs: 0, maxMs: 0 },
    }),
  );
}
