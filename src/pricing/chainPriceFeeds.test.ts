import { describe, expect, it } from "vitest";
import type { BaseChainConfig } from "../chains/chainFamily.js";
import { chainPriceFeeds } from "./chainPriceFeeds.js";

const ID = "ab".repeat(32);
const chain = (id: number, prices: BaseChainConfig["prices"]) =>
  ({ id, name: `chain-${id}`, prices }) as unknown as BaseChainConfig;

describe("chainPriceFeeds", () => {
  it("gathers feeds by upper-case symbol: one feed id however written, every aggregator, the strictest age", () => {
    const feeds = chainPriceFeeds([
      chain(1, { eth: { pythFeedId: ID.toUpperCase(), aggregator: "0xa", maxAgeSeconds: 90 } }),
      chain(2, { ETH: { pythFeedId: `0x${ID}`, aggregator: "0xb", maxAgeSeconds: 30 }, USDC: {} }),
    ]);
    expect(feeds).toEqual({
      feedIds: { ETH: `0x${ID}` },
      aggregators: [
        { chainId: 1, key: "ETH", address: "0xa" },
        { chainId: 2, key: "ETH", address: "0xb" },
      ],
      maxAgeSecondsBySymbol: { ETH: 30 },
    });
  });
  it("refuses two feeds for one symbol", () => {
    expect(() =>
      chainPriceFeeds([chain(1, { ETH: { pythFeedId: ID } }), chain(2, { ETH: { pythFeedId: "cd".repeat(32) } })]),
    ).toThrow(/chains chain-1 and chain-2 name different Pyth feeds for ETH/);
  });
});
