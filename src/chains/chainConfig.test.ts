import { describe, expect, it } from "vitest";
import { REGTEST_ADDRESS } from "../../test/support/testBitcoinChain.js";
import { BITCOIN_NATIVE_CURRENCY } from "./bitcoin/bitcoinFamily.js";
import { chainConfigSchema } from "./chainConfig.js";

const evm = {
  id: 10,
  name: "a",
  rpcUrl: "http://127.0.0.1:1",
  depository: "0x00000000000000000000000000000000000000d0",
  receiver: "0x00000000000000000000000000000000000000e0",
};
const bitcoin = {
  id: 8253038,
  name: "bitcoin",
  vmType: "bvm",
  network: "regtest",
  esploraUrl: "http://127.0.0.1:1",
  depository: REGTEST_ADDRESS,
};

describe("chainConfigSchema", () => {
  it("reads a chain without vmType as EVM, as chains files written before Bitcoin have it", () => {
    expect(chainConfigSchema.parse(evm)).toMatchObject({ vmType: "evm", blockTimeSeconds: 2, currencies: [] });
  });

  it("keeps 1337 and 8253038 reserved for EVM chains", () => {
    for (const id of [1337, 8253038]) expect(chainConfigSchema.safeParse({ ...evm, id }).success).toBe(false);
  });

  it("reads a Bitcoin chain with its defaults", () => {
    expect(chainConfigSchema.parse(bitcoin)).toEqual({
      ...bitcoin,
      explorerUrl: "",
      startBlock: 0,
      confirmations: [{ blocks: 1 }, { minAmounts: { BTC: "0.1" }, blocks: 2 }],
      blockTimeSeconds: 600,
      refundUnmatchedAfterBlocks: 144,
      nativeCurrency: { symbol: "BTC", name: "Bitcoin", decimals: 8 },
      currencies: [],
      prices: {},
    });
  });

  it("takes a Bitcoin chain's refundUnmatchedAfterBlocks: a whole number of blocks, at least one", () => {
    expect(chainConfigSchema.parse({ ...bitcoin, refundUnmatchedAfterBlocks: 6 })).toMatchObject({
      refundUnmatchedAfterBlocks: 6,
    });
    for (const wrong of [0, 1.5, "6"])
      expect(chainConfigSchema.safeParse({ ...bitcoin, refundUnmatchedAfterBlocks: wrong }).success).toBe(false);
  });

  it("wants a Bitcoin depository of the chain's network", () => {
    const mainnetAddress = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    expect(chainConfigSchema.safeParse({ ...bitcoin, depository: mainnetAddress }).success).toBe(false);
    expect(chainConfigSchema.safeParse({ ...bitcoin, network: "mainnet", depository: mainnetAddress }).success).toBe(
      true,
    );
    expect(chainConfigSchema.safeParse({ ...bitcoin, depository: BITCOIN_NATIVE_CURRENCY }).success).toBe(false);
  });

  it("wants an https Esplora, plain http on a loopback host only; takes an optional fee-rate cap", () => {
    expect(chainConfigSchema.safeParse({ ...bitcoin, esploraUrl: "https://blockstream.info/api" }).success).toBe(true);
    const insecure = chainConfigSchema.safeParse({ ...bitcoin, esploraUrl: "http://blockstream.info/api" });
    expect(insecure.success).toBe(false);
    expect(insecure.error?.issues[0]).toMatchObject({ path: ["esploraUrl"], message: expect.stringMatching(/https/) });
    expect(chainConfigSchema.parse(bitcoin)).not.toHaveProperty("maxFeeRateSatVb");
    expect(chainConfigSchema.parse({ ...bitcoin, maxFeeRateSatVb: 80 })).toMatchObject({ maxFeeRateSatVb: 80 });
    expect(chainConfigSchema.safeParse({ ...bitcoin, maxFeeRateSatVb: 0 }).success).toBe(false);
  });

  it("takes an optional Bitcoin solver wallet of the chain's network, never the depository", () => {
    const solver = "bcrt1quvmqzt9ug428ft3f7nkjtazd20quyy8dz6k7d7";
    expect(chainConfigSchema.safeParse({ ...bitcoin, solver }).success).toBe(true);
    expect(
      chainConfigSchema.safeParse({ ...bitcoin, solver: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" }).success,
    ).toBe(false);
    expect(chainConfigSchema.safeParse({ ...bitcoin, solver: REGTEST_ADDRESS }).success).toBe(false);
  });

  it("lets a Bitcoin chain list native BTC only, and needs no EVM fields", () => {
    const btc = { symbol: "BTC", address: BITCOIN_NATIVE_CURRENCY, decimals: 8 };
    expect(chainConfigSchema.safeParse({ ...bitcoin, currencies: [btc] }).success).toBe(true);
    expect(
      chainConfigSchema.safeParse({ ...bitcoin, currencies: [{ ...btc, address: REGTEST_ADDRESS }] }).success,
    ).toBe(false);
    expect(chainConfigSchema.safeParse({ ...bitcoin, network: "signet" }).success).toBe(false);
    expect(chainConfigSchema.safeParse({ ...bitcoin, esploraUrl: undefined }).success).toBe(false);
  });
});
