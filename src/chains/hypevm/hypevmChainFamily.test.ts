import { describe, expect, it } from "vitest";
import { hypevmChainConfigSchema, hypevmChainFamily } from "./hypevmChainFamily.js";
import { PERPS_USDC_CURRENCY } from "./hypevmFamily.js";

const entry = {
  id: 1337,
  vmType: "hypevm",
  name: "hyperliquid",
  exchangeUrl: "http://127.0.0.1:3001",
  network: "Testnet",
  depository: "0x1000000000000000000000000000000000000001",
  solver: "0x2000000000000000000000000000000000000002",
  currencies: [{ symbol: "HYPE", address: "0x0d01dc56dcaaca66ad901c959b4011ec", decimals: 8 }],
};

describe("hypevmChainConfigSchema", () => {
  it("reads the exchange's entry with perps USDC (8 decimals) as its native currency", () => {
    const chain = hypevmChainConfigSchema.parse(entry);
    expect(chain).toMatchObject({
      nativeCurrency: { symbol: "USDC", decimals: 8 },
      blockTimeSeconds: 1,
      refundUnmatchedAfterBlocks: 3600,
      confirmations: [],
    });
    expect(hypevmChainFamily.capabilities(chain)).toEqual({
      sameChain: false,
      destinationRefusal: undefined,
      destinationCallsRefusal: "the perps exchange takes no calls, only a transfer",
      appFees: false,
      depositAddresses: false,
      refundUnmatchedAfterBlocks: 3600,
    });
    expect(hypevmChainFamily.publicFields(chain)).toMatchObject({
      receiver: PERPS_USDC_CURRENCY,
      tokens: chain.currencies,
    });
  });

  it("may repeat perps USDC among its currencies, which it publishes once, as the native currency", () => {
    const usdc = { symbol: "USDC", address: PERPS_USDC_CURRENCY, decimals: 8 };
    const chain = hypevmChainConfigSchema.parse({ ...entry, currencies: [usdc, ...entry.currencies] });
    expect(hypevmChainFamily.publicFields(chain).tokens.map((t) => t.symbol)).toEqual(["HYPE"]);
  });

  it("is no destination without a solver account", () => {
    const { solver: _, ...originOnly } = entry;
    const chain = hypevmChainConfigSchema.parse(originOnly);
    expect(hypevmChainFamily.capabilities(chain).destinationRefusal).toMatch(/names no solver account/);
  });

  it("refuses another id, a bad network, the solver as depository and perps USDC among the currencies", () => {
    const refused = (patch: Record<string, unknown>) =>
      !hypevmChainConfigSchema.safeParse({ ...entry, ...patch }).success;
    expect(refused({ id: 999 })).toBe(true);
    expect(refused({ network: "Devnet" })).toBe(true);
    expect(refused({ solver: entry.depository.toUpperCase().replace("0X", "0x") })).toBe(true);
    expect(refused({ currencies: [{ symbol: "USDC", address: PERPS_USDC_CURRENCY, decimals: 6 }] })).toBe(true);
    expect(refused({ currencies: [{ symbol: "X", address: entry.depository, decimals: 8 }] })).toBe(true);
    expect(refused({ exchangeUrl: "not a url" })).toBe(true);
  });
});
