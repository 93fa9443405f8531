import type { ChainAggregator } from "./chainPriceFeeds.js";

/** One source of the price layer, as configured. */
export type PriceSourceSettings =
  /** The operator's fixed table by symbol (PRICES): the devnet's and tests' source, alone in its chain. */
  | { kind: "static"; prices: Readonly<Record<string, string>> }
  /** Pyth's Hermes over HTTP: the feed id of each symbol it prices (the chains file's `pythFeedId`s). */
  | { kind: "pyth"; hermesUrl: string; feedIds: Readonly<Record<string, string>>; maxConfidenceBps: bigint }
  /** Chainlink-style aggregators on chain (the chains file's `aggregator`s), one source per hosting chain. */
  | { kind: "aggregator"; aggregators: readonly ChainAggregator[]; refreshMs: number };

/** The price layer of a role (src/rolePrices.ts reads it from the environment; createConfiguredPriceSource builds it). */
export type PriceSettings = {
  /** In order of preference. */
  sources: readonly PriceSourceSettings[];
  /** The oldest price a quote may use, by default and per symbol (the chains file's `maxAgeSeconds`). */
  maxAgeSeconds: number;
  maxAgeSecondsBySymbol: Readonly<Record<string, number>>;
  deviationBps: bigint;
  timeoutMs: number;
  refreshMs: number;
};
