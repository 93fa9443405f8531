import type { BaseChainConfig } from "./chains/chainFamily.js";
import type { Config } from "./config.js";
import { chainPriceFeeds } from "./pricing/chainPriceFeeds.js";
import type { PriceSettings, PriceSourceSettings } from "./pricing/priceSettings.js";

/** The devnet's static USD prices (PRICE_SOURCES=static on the devnet, tests): made-up numbers, never a default. */
export const DEVNET_PRICES: Readonly<Record<string, string>> = Object.freeze({
  ETH: "3000",
  WETH: "3000",
  USDC: "1",
  BTC: "60000",
  // The native currency of chain 999, the perps exchange's EVM chain.
  HYPE: "40",
  SOL: "150",
});

/** The price layer's limits from the environment (per symbol: the chains file's `maxAgeSeconds`), around the sources. */
export function priceSettingsWith(
  config: Config,
  sources: readonly PriceSourceSettings[],
  maxAgeSecondsBySymbol: Readonly<Record<string, number>> = {},
): PriceSettings {
  return {
    sources,
    maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS,
    maxAgeSecondsBySymbol,
    deviationBps: config.PRICE_DEVIATION_BPS,
    timeoutMs: config.PRICE_TIMEOUT_MS,
    refreshMs: config.PRICE_REFRESH_MS,
  };
}

/** The sources PRICE_SOURCES names, or `static` when only PRICES is set; undefined when neither chooses any. */
export function configuredPriceSources(config: Config) {
  const table = config.PRICES && Object.keys(config.PRICES).length > 0;
  return config.PRICE_SOURCES ?? (table ? (["static"] as const) : undefined);
}

/**
 * The price sources a role quotes, fills and refunds with (PRICE_SOURCES, in order), each pricing what the chains
 * file names for it (each chain's `prices`: Pyth feed ids, aggregators, maximum ages). `api` and `worker` start only
 * with sources given explicitly: live feeds (pyth, aggregator) or, for a fixed-rate deployment or a test, the static
 * table (PRICES, which alone also selects it). The static table is never combined with a live source: it would quote
 * real money at made-up rates whenever the feed fails. Undefined for `dev` without any: the devnet's own Hermes and
 * aggregators.
 */
export function rolePrices(
  config: Config,
  role: string,
  chains: readonly BaseChainConfig[],
): PriceSettings | undefined {
  const table = config.PRICES && Object.keys(config.PRICES).length > 0 ? config.PRICES : undefined;
  const kinds = configuredPriceSources(config);
  if (!kinds) {
    if (role === "dev") return undefined;
    throw new Error(
      `PRICE_SOURCES or PRICES is required for crossfill ${role}: quotes, fills and refunds need prices. Set ` +
        `PRICE_SOURCES=pyth,aggregator with PYTH_HERMES_URL and the chains file's feeds (live prices), or, for a fixed-rate deployment, ` +
        `the static table PRICES=ETH=3150.25,WETH=3150.25,USDC=1,BTC=97000 covering every symbol of the chains file ` +
        `(docs/OPERATIONS.md, "Prices")`,
    );
  }
  if (kinds.includes("static") && kinds.length > 1) {
    throw new Error(
      `PRICE_SOURCES=${kinds.join(",")}: the static table is a devnet and test source and never backs up a live one`,
    );
  }
  const feeds = chainPriceFeeds(chains);
  const sources = kinds.map((kind): PriceSourceSettings => {
    if (kind === "static") {
      const prices = table ?? (role === "dev" ? DEVNET_PRICES : undefined);
      if (!prices) throw new Error(`PRICE_SOURCES=static needs PRICES for crossfill ${role} (USD by symbol)`);
      return { kind, prices };
    }
    if (kind === "aggregator") {
      if (feeds.aggregators.length === 0)
        throw new Error(`PRICE_SOURCES=aggregator needs an aggregator in the chains file (a chain's prices.<SYMBOL>)`);
      return { kind, aggregators: feeds.aggregators, refreshMs: config.PRICE_AGGREGATOR_REFRESH_MS };
    }
    if (!config.PYTH_HERMES_URL) throw new Error(`PRICE_SOURCES=pyth needs PYTH_HERMES_URL`);
    if (Object.keys(feeds.feedIds).length === 0)
      throw new Error(
        `PRICE_SOURCES=pyth needs a Pyth feed id in the chains file (a chain's prices.<SYMBOL>.pythFeedId)`,
      );
    return {
      kind,
      hermesUrl: config.PYTH_HERMES_URL,
      feedIds: feeds.feedIds,
      maxConfidenceBps: config.PYTH_MAX_CONFIDENCE_BPS,
    };
  });
  return priceSettingsWith(config, sources, feeds.maxAgeSecondsBySymbol);
}
