import { describe, expect, it } from "vitest";
import { DEVNET_FEED_IDS } from "./devnetPriceFeeds.js";
import { withDevnetPythFeeds } from "./withDevnetPythFeeds.js";

describe("withDevnetPythFeeds", () => {
  it("names the devnet Hermes' feed of each currency a chain carries, keeping what the chain names already", () => {
    const [evm, bitcoin] = withDevnetPythFeeds([
      {
        nativeCurrency: { symbol: "ETH" },
        currencies: [{ symbol: "USDC" }, { symbol: "WETH" }, { symbol: "XYZ" }],
        prices: { ETH: { aggregator: "0xa" } },
      },
      { nativeCurrency: { symbol: "BTC" } },
    ]);
    expect(evm!.prices).toEqual({
      ETH: { aggregator: "0xa", pythFeedId: DEVNET_FEED_IDS.ETH },
      USDC: { pythFeedId: DEVNET_FEED_IDS.USDC },
      // Wrapped ether is priced by ether's feed.
      WETH: { pythFeedId: DEVNET_FEED_IDS.ETH },
    });
    expect(bitcoin!.prices).toEqual({ BTC: { pythFeedId: DEVNET_FEED_IDS.BTC } });
  });
});
