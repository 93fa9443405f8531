import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { chainsFileSchema } from "./chains/chainConfig.js";
import { DEVNET_PRICES, rolePrices } from "./rolePrices.js";

const ETH_FEED = "ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace";
const BTC_FEED = "e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43";
const AGGREGATOR = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/** A chains file's chains: an EVM chain naming ETH's feed and aggregator and USDC's age, BTC's feed on Bitcoin. */
function chainsWith(prices: { evm?: unknown; bitcoin?: unknown } = {}) {
  const evm = {
    id: 1,
    name: "ethereum",
    rpcUrl: "http://127.0.0.1:8545",
    depository: "0x0000000000000000000000000000000000000001",
    receiver: "0x0000000000000000000000000000000000000002",
    prices: prices.evm ?? {
      ETH: { pythFeedId: `0x${ETH_FEED}`, aggregator: AGGREGATOR },
      weth: { pythFeedId: ETH_FEED },
      USDC: { maxAgeSeconds: 3600 },
    },
  };
  const bitcoin = {
    id: 8253038,
    vmType: "bvm",
    name: "bitcoin",
    esploraUrl: "http://127.0.0.1:3002",
    network: "regtest",
    depository: "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
    prices: prices.bitcoin ?? { BTC: { pythFeedId: BTC_FEED, maxAgeSeconds: 120 } },
  };
  return chainsFileSchema.parse({ chains: [evm, bitcoin] }).chains;
}

describe("rolePrices", () => {
  it("PRICES alone selects the static table, whatever the role", () => {
    const config = parseConfig({ PRICES: "ETH=3150.25,USDC=1" });
    for (const role of ["dev", "api", "worker"])
      expect(rolePrices(config, role, [])?.sources).toEqual([
        { kind: "static", prices: { ETH: "3150.25", USDC: "1" } },
      ]);
  });

  it("dev without any is left to the devnet's Hermes; api and worker refuse to start, saying why", () => {
    for (const config of [parseConfig({}), parseConfig({ PRICES: "" })]) {
      expect(rolePrices(config, "dev", [])).toBeUndefined();
      for (const role of ["api", "worker"])
        expect(() => rolePrices(config, role, [])).toThrow(
          new RegExp(`^PRICE_SOURCES or PRICES is required for crossfill ${role}: `),
        );
    }
    expect(rolePrices(parseConfig({ PRICE_SOURCES: "static" }), "dev", [])?.sources).toEqual([
      { kind: "static", prices: DEVNET_PRICES },
    ]);
    expect(() => rolePrices(parseConfig({ PRICE_SOURCES: "static" }), "api", [])).toThrow(/needs PRICES/);
  });

  it("reads each source's feeds from the chains file: Pyth ids and aggregators by symbol, the strictest age", () => {
    const config = parseConfig({
      PRICE_SOURCES: "pyth,aggregator",
      PYTH_HERMES_URL: "https://hermes.pyth.network",
      PRICE_DEVIATION_BPS: "150",
    });
    expect(rolePrices(config, "api", chainsWith())).toEqual({
      sources: [
        {
          kind: "pyth",
          hermesUrl: "https://hermes.pyth.network",
          feedIds: { ETH: `0x${ETH_FEED}`, WETH: `0x${ETH_FEED}`, BTC: `0x${BTC_FEED}` },
          maxConfidenceBps: 200n,
        },
        { kind: "aggregator", aggregators: [{ chainId: 1, key: "ETH", address: AGGREGATOR }], refreshMs: 5000 },
      ],
      maxAgeSeconds: 60,
      maxAgeSecondsBySymbol: { USDC: 3600, BTC: 120 },
      deviationBps: 150n,
      timeoutMs: 2000,
      refreshMs: 1000,
    });
    expect(() => rolePrices(parseConfig({ PRICE_SOURCES: "pyth" }), "worker", chainsWith())).toThrow(/PYTH_HERMES_URL/);
    expect(() => rolePrices(config, "worker", chainsWith({ evm: {}, bitcoin: {} }))).toThrow(/a Pyth feed id/);
  });

  it("refuses a chains file naming two feeds for one symbol, or an aggregator that is no address", () => {
    const config = parseConfig({ PRICE_SOURCES: "pyth", PYTH_HERMES_URL: "https://hermes.pyth.network" });
    expect(() => rolePrices(config, "api", chainsWith({ bitcoin: { ETH: { pythFeedId: BTC_FEED } } }))).toThrow(
      /chains ethereum and bitcoin name different Pyth feeds for ETH/,
    );
    expect(() => chainsWith({ evm: { ETH: { aggregator: "0x1234" } } })).toThrow(/20-byte hex address/);
    expect(() => chainsWith({ evm: { ETH: { pythFeedId: "0x1234" } } })).toThrow(/32-byte hex Pyth feed id/);
    expect(() => chainsWith({ evm: { ETH: { maxAgeSeconds: 0 } } })).toThrow(/maxAgeSeconds/);
  });

  it("never puts the static table behind a live source", () => {
    const config = parseConfig({
      PRICE_SOURCES: "pyth,static",
      PRICES: "ETH=3000",
      PYTH_HERMES_URL: "https://hermes.pyth.network",
    });
    expect(() => rolePrices(config, "api", chainsWith())).toThrow(/never backs up a live one/);
  });

  it("refuses malformed settings at parse time", () => {
    expect(() => parseConfig({ PRICE_SOURCES: "coingecko" })).toThrow(/PRICE_SOURCES/);
    expect(() => parseConfig({ PRICE_MAX_AGE_SECONDS: "0" })).toThrow(/PRICE_MAX_AGE_SECONDS/);
  });
});
