import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";

describe("parseConfig", () => {
  it("applies defaults for a bare environment", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(4000);
    expect(config.DEVNET_CHAIN_IDS).toEqual([31337, 31338, 31339]);
    expect(config.DEVNET_BITCOIN_BLOCK_TIME).toBe(5);
    expect(config.PRICES).toEqual({ ETH: "3000", WETH: "3000", USDC: "1" });
    expect(config.SERVICE_FEE_BPS).toBe(5n);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("parses lists and prices", () => {
    const config = parseConfig({ DEVNET_CHAIN_IDS: "10, 20", PRICES: "ETH=2500.5,USDC=1" });
    expect(config.DEVNET_CHAIN_IDS).toEqual([10, 20]);
    expect(config.PRICES).toEqual({ ETH: "2500.5", USDC: "1" });
  });

  it("refuses malformed values with the variable's name", () => {
    expect(() => parseConfig({ SOLVER_PRIVATE_KEY: "0x12" })).toThrow(/SOLVER_PRIVATE_KEY/);
    expect(() => parseConfig({ PRICES: "ETH=abc" })).toThrow(/PRICES/);
    expect(() => parseConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseConfig({ DEVNET_BITCOIN_BLOCK_TIME: "-1" })).toThrow(/DEVNET_BITCOIN_BLOCK_TIME/);
  });
});
