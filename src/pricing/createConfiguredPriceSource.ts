import type { ChainAdapters } from "../chains/chainAdapters.js";
import { createAggregatorPriceFeed } from "./aggregator/createAggregatorPriceFeed.js";
import { createPriceChain } from "./createPriceChain.js";
import type { PriceFeed } from "./priceFeed.js";
import type { PriceSettings } from "./priceSettings.js";
import { type PriceSource, priceSourceOf } from "./priceSource.js";
import { createPythPriceFeed } from "./pyth/createPythPriceFeed.js";
import { createStaticPriceFeed } from "./staticPriceFeed.js";

/** After a failure a source rests 1 s, doubling up to 30 s (Hermes' public limit is 30 requests per 10 s an address). */
const BACKOFF = { baseMs: 1_000, maxMs: 30_000 };

export type ConfiguredPriceSourcePorts = {
  now?: () => number;
  /** The role's adapters: a chain's aggregators are read through its quoter's `readAggregatorRound`. */
  adapters?: Pick<ChainAdapters, "quoterOf">;
};

/** A role's price layer from its settings (src/rolePrices.ts): one per process, shared by every quote and job in it. */
export function createConfiguredPriceSource(
  settings: PriceSettings,
  ports: ConfiguredPriceSourcePorts = {},
): PriceSource {
  const now = ports.now ?? Date.now;
  const feeds = settings.sources.flatMap((source): PriceFeed[] => {
    if (source.kind === "static") return [createStaticPriceFeed(source.prices, now)];
    if (source.kind === "pyth") return [createPythPriceFeed(source)];
    // One source per hosting chain, in the chains file's order: each answers for the keys it has aggregators of.
    const chainIds = [...new Set(source.aggregators.map((aggregator) => aggregator.chainId))];
    return chainIds.map((chainId) => {
      const readRound = ports.adapters?.quoterOf(chainId)?.readAggregatorRound;
      if (!readRound)
        throw new Error(`chain ${chainId} names price aggregators, but its family reads none (an EVM chain does)`);
      const hosted = source.aggregators.filter((aggregator) => aggregator.chainId === chainId);
      return createAggregatorPriceFeed({
        name: chainIds.length > 1 ? `aggregator@${chainId}` : "aggregator",
        aggregators: Object.fromEntries(hosted.map((aggregator) => [aggregator.key, aggregator.address])),
        readRound,
        refreshMs: source.refreshMs,
        now,
      });
    });
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
