import type { PriceObservation } from "./priceObservation.js";

/**
 * One price source (Pyth Hermes, an on-chain aggregator, the devnet's static table). It prices a fixed set of price
 * keys (`keys`, see priceKeyOf) and answers all it is asked in one round trip: `fetch` returns what it has an answer
 * for and throws when the source cannot be read (a PriceFeedError may say how long to leave it alone).
 */
export type PriceFeed = {
  name: string;
  keys: ReadonlySet<string>;
  /** Read at most once per this period instead of the layer's (an aggregator's rounds come seconds to hours apart). */
  refreshMs?: number;
  fetch(keys: readonly string[], signal: AbortSignal): Promise<ReadonlyMap<string, PriceObservation>>;
};

/** A source that refused us for a while (HTTP 429 and its Retry-After): it is not asked again before then. */
export class PriceFeedError extends Error {
  override name = "PriceFeedError";
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
