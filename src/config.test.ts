import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiWorkers, parseConfig, parseFamilyKeys } from "./config.js";

describe("parseConfig", () => {
  it("applies defaults for a bare environment", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(4000);
    expect(config.DEVNET_CHAIN_IDS).toEqual([31337, 31338, 31339, 999]);
    expect(config.DEVNET_BITCOIN_BLOCK_TIME).toBe(5);
    expect(config.PRICES).toBeUndefined();
    expect(config.SERVICE_FEE_BPS).toBe(5n);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("parses lists and prices", () => {
    const config = parseConfig({ DEVNET_CHAIN_IDS: "10, 20", PRICES: "ETH=2500.5,USDC=1" });
    expect(config.DEVNET_CHAIN_IDS).toEqual([10, 20]);
    expect(config.PRICES).toEqual({ ETH: "2500.5", USDC: "1" });
  });

  it("refuses malformed values with the variable's name", () => {
    expect(() => parseConfig({ PRICES: "ETH=abc" })).toThrow(/PRICES/);
    expect(() => parseConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseConfig({ DEVNET_BITCOIN_BLOCK_TIME: "-1" })).toThrow(/DEVNET_BITCOIN_BLOCK_TIME/);
  });
});

describe("parseFamilyKeys", () => {
  const schemas = {
    a: z.object({ A_KEY: z.string().regex(/^0x/).optional() }).transform((env) => ({ key: env.A_KEY })),
    b: z.object({ B_FEE: z.coerce.number().min(1).optional() }).transform((env) => ({ fee: env.B_FEE })),
  };

  it("parses each family's keys by its schema, keyed by vmType, frozen", () => {
    const keys = parseFamilyKeys({ A_KEY: "0x1", B_FEE: "3", OTHER: "x" }, schemas);
    expect(keys).toEqual({ a: { key: "0x1" }, b: { fee: 3 } });
    expect(Object.isFrozen(keys) && Object.isFrozen(keys.a)).toBe(true);
    expect(parseFamilyKeys({}, schemas)).toEqual({ a: { key: undefined }, b: { fee: undefined } });
  });

  it("refuses malformed keys with the variables' names, every family's at once", () => {
    expect(() => parseFamilyKeys({ A_KEY: "12", B_FEE: "0" }, schemas)).toThrow(/A_KEY[\s\S]*B_FEE/);
  });
});

describe("apiWorkers", () => {
  it("takes --workers N or --workers=N, else API_WORKERS, else one per core, and refuses anything but 1–256", () => {
    const config = parseConfig({});
    expect(apiWorkers([], config, 8)).toBe(8);
    expect(apiWorkers([], parseConfig({ API_WORKERS: "3" }), 8)).toBe(3);
    expect(apiWorkers(["--workers", "2"], parseConfig({ API_WORKERS: "3" }), 8)).toBe(2);
    expect(apiWorkers(["--workers=1"], config, 8)).toBe(1);
    for (const bad of [["--workers"], ["--workers", "0"], ["--workers=two"], ["--workers", "1.5"]])
      expect(() => apiWorkers(bad, config, 8)).toThrow(/--workers/);
  });
});
