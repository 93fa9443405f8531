import type { BaseChainConfig } from "../chains/chainFamily.js";
import { priceKeyOf } from "./priceKeyOf.js";

/** An aggregator a chain hosts for a price key. */
export type ChainAggregator = { chainId: number; key: string; address: string };

/** The price feeds the chains file names, gathered by price key for the sources (src/rolePrices.ts). */
export type ChainPriceFeeds = {
  /** Price key → Pyth feed id (0x-prefixed, lower case). */
  feedIds: Readonly<Record<string, string>>;
  aggregators: readonly ChainAggregator[];
  /** Price key → the oldest price of it a quote may use, the strictest any chain names. */
  maxAgeSecondsBySymbol: Readonly<Record<string, number>>;
};

/**
 * Each chain's `prices` (commonChainFields) by price key. A symbol is one price on every chain, so two chains naming
 * different Pyth feeds for it are refused rather than one of them silently ignored.
 */
export function chainPriceFeeds(chains: readonly BaseChainConfig[]): ChainPriceFeeds {
  const feedIds: Record<string, string> = {};
  const feedIdFrom: Record<string, string> = {};
  const aggregators: ChainAggregator[] = [];
  const maxAgeSecondsBySymbol: Record<string, number> = {};
  for (const chain of chains) {
    for (const [symbol, feed] of Object.entries(chain.prices ?? {})) {
      const key = priceKeyOf({ symbol });
      if (feed.pythFeedId !== undefined) {
        const id = `0x${feed.pythFeedId.replace(/^0x/, "").toLowerCase()}`;
        if (feedIds[key] !== undefined && feedIds[key] !== id)
          throw new Error(
            `chains ${feedIdFrom[key]} and ${chain.name} name different Pyth feeds for ${key} (${feedIds[key]}, ${id}): a symbol has one price`,
          );
        feedIds[key] = id;
        feedIdFrom[key] = chain.name;
      }
      if (feed.aggregator !== undefined) aggregators.push({ chainId: chain.id, key, address: feed.aggregator });
      if (feed.maxAgeSeconds !== undefined)
        maxAgeSecondsBySymbol[key] = Math.min(maxAgeSecondsBySymbol[key] ?? Infinity, feed.maxAgeSeconds);
    }
  }
  return { feedIds, aggregators, maxAgeSecondsBySymbol };
}
