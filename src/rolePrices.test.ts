import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { DEVNET_PRICES, rolePrices } from "./rolePrices.js";

const ETH_FEED = "ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace";

describe("rolePrices", () => {
  it("PRICES alone selects the static table, whatever the role", () => {
    const config = parseConfig({ PRICES: "ETH=3150.25,USDC=1" });
    for (const role of ["dev", "api", "worker"])
      expect(rolePrices(config, role)?.sources).toEqual([{ kind: "static", prices: { ETH: "3150.25", USDC: "1" } }]);
  });

  it("dev without any is left to the devnet's Hermes; api and worker refuse to start, saying why", () => {
    for (const config of [parseConfig({}), parseConfig({ PRICES: "" })]) {
      expect(rolePrices(config, "dev")).toBeUndefined();
      for (const role of ["api", "worker"])
        expect(() => rolePrices(config, role)).toThrow(
          new RegExp(`^PRICE_SOURCES or PRICES is required for crossfill ${role}: `),
        );
    }
    expect(rolePrices(parseConfig({ PRICE_SOURCES: "static" }), "dev")?.sources).toEqual([
      { kind: "static", prices: DEVNET_PRICES },
    ]);
    expect(() => rolePrices(parseConfig({ PRICE_SOURCES: "static" }), "api")).toThrow(/needs PRICES/);
  });

  it("reads Pyth's settings and the layer's limits, per-symbol ages in upper case", () => {
    const config = parseConfig({
      PRICE_SOURCES: "pyth",
      PYTH_HERMES_URL: "https://hermes.pyth.network",
      PYTH_FEED_IDS: `ETH=0x${ETH_FEED},WETH=${ETH_FEED}`,
      PRICE_MAX_AGES: "usdc=3600",
      PRICE_DEVIATION_BPS: "150",
    });
    expect(rolePrices(config, "api")).toEqual({
      sources: [
        {
          kind: "pyth",
          hermesUrl: "https://hermes.pyth.network",
          feedIds: { ETH: `0x${ETH_FEED}`, WETH: ETH_FEED },
          maxConfidenceBps: 200n,
        },
      ],
      maxAgeSeconds: 60,
      maxAgeSecondsBySymbol: { USDC: 3600 },
      deviationBps: 150n,
      timeoutMs: 2000,
      refreshMs: 1000,
    });
    expect(() => rolePrices(parseConfig({ PRICE_SOURCES: "pyth" }), "worker")).toThrow(/PYTH_HERMES_URL/);
  });

  it("never puts the static table behind a live source", () => {
    const config = parseConfig({
      PRICE_SOURCES: "pyth,static",
      PRICES: "ETH=3000",
      PYTH_HERMES_URL: "https://hermes.pyth.network",
      PYTH_FEED_IDS: `ETH=${ETH_FEED}`,
    });
    expect(() => rolePrices(config, "api")).toThrow(/never backs up a live one/);
  });

  it("refuses malformed settings at parse time", () => {
    expect(() => parseConfig({ PRICE_SOURCES: "coingecko" })).toThrow(/PRICE_SOURCES/);
    expect(() => parseConfig({ PYTH_FEED_IDS: "ETH=0x1234" })).toThrow(/PYTH_FEED_IDS/);
    expect(() => parseConfig({ PRICE_MAX_AGES: "ETH=-1" })).toThrow(/PRICE_MAX_AGES/);
  });
});
