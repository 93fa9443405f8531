import { describe, expect, it } from "vitest";
import type { ChainAdapter } from "./adapter.js";
import { chainConfigSchema } from "./chainConfig.js";
import { createChainAdapters } from "./chainAdapters.js";
import { evmFamily } from "./evm/evmFamily.js";

const chain = (id: number) =>
  chainConfigSchema.parse({
    id,
    name: `chain-${id}`,
    rpcUrl: "http://127.0.0.1:1",
    depository: "0x00000000000000000000000000000000000000d0",
    receiver: "0x00000000000000000000000000000000000000e0",
  });

describe("createChainAdapters", () => {
  const made: number[] = [];
  const adapters = createChainAdapters([chain(10), chain(20)], {
    evm: (config) => {
      made.push(config.id);
      return { ...evmFamily, chain: config } as ChainAdapter;
    },
  });

  it("makes one adapter per chain with its vmType's factory, and refuses an unconfigured chain", () => {
    expect(made).toEqual([10, 20]);
    expect(adapters.adapter(20).chain.id).toBe(20);
    expect(adapters.all.map((adapter) => adapter.chain.id)).toEqual([10, 20]);
    expect(() => adapters.adapter(30)).toThrow("no adapter for chain 30");
  });

  it("keys an address any configured family accepts, and nothing else", () => {
    expect(adapters.anyAddressKey("0x8ba1f109551bD432803012645Ac136ddd64DBA72")).toBe(
      "0x8ba1f109551bd432803012645ac136ddd64dba72",
    );
    expect(adapters.anyAddressKey("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")).toBeUndefined();
  });
});
