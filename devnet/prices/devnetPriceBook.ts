import { randomInt } from "node:crypto";
import { parseDecimal } from "../../src/domain/money.js";
import { DEVNET_PRICE_FEEDS } from "./devnetPriceFeeds.js";

/** Pyth's exponent for the devnet's feeds: 8 decimals. */
export const DEVNET_PRICE_EXPO = -8;

export type DevnetFeed = {
  symbol: string;
  id: string;
  price: bigint;
  conf: bigint;
  publishTime: number;
  frozen: boolean;
};

export type DevnetPriceBook = {
  feeds(): readonly DevnetFeed[];
  feed(symbol: string): DevnetFeed | undefined;
  /** Sets a feed's price (USD, a decimal string) and publishes it now, unless it is frozen. */
  set(symbol: string, usd: string): DevnetFeed | undefined;
  /** A frozen feed keeps its price and publish time: it goes stale. Unfreezing publishes it again at once. */
  freeze(symbol: string, frozen: boolean): DevnetFeed | undefined;
  /** One tick: every feed not frozen moves by a random step of at most `walkBps` and is published now. */
  walk(walkBps: number): void;
};

/** The devnet price service's state: the feeds, their prices (integers at DEVNET_PRICE_EXPO), their publish times. */
export function createDevnetPriceBook(now: () => number = Date.now): DevnetPriceBook {
  const seconds = () => Math.floor(now() / 1000);
  const feeds = DEVNET_PRICE_FEEDS.map((feed): DevnetFeed => ({
    symbol: feed.symbol,
    id: feed.id,
    price: parseDecimal(feed.usd, -DEVNET_PRICE_EXPO),
    conf: 0n,
    publishTime: seconds(),
    frozen: false,
  }));
  // A confidence interval of 0.01 %, as a liquid pair has.
  const publish = (feed: DevnetFeed) => {
    feed.conf = feed.price / 10_000n;
    if (!feed.frozen) feed.publishTime = seconds();
  };
  feeds.forEach(publish);
  const bySymbol = (symbol: string) => feeds.find((feed) => feed.symbol === symbol.toUpperCase());
  return {
    feeds: () => feeds,
    feed: bySymbol,
    set(symbol, usd) {
      const feed = bySymbol(symbol);
      if (!feed) return undefined;
      feed.price = parseDecimal(usd, -DEVNET_PRICE_EXPO);
      publish(feed);
      return feed;
    },
    freeze(symbol, frozen) {
      const feed = bySymbol(symbol);
      if (!feed) return undefined;
      feed.frozen = frozen;
      publish(feed);
      return feed;
    },
    walk(walkBps) {
      for (const feed of feeds) {
        if (feed.frozen) continue;
        if (walkBps > 0) feed.price += (feed.price * BigInt(randomInt(-walkBps, walkBps + 1))) / 10_000n;
        publish(feed);
      }
    },
  };
}
