import { describe, expect, it } from "vitest";
import type { ChainAdapter, QuotePort } from "./adapter.js";
import { everyRole } from "./everyRole.js";
import { GRAPHQL_TEST_CHAINS } from "../../test/support/createTestGraphqlServer.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { createChainAdapters } from "./chainAdapters.js";
import { evmFamily } from "./evm/evmFamily.js";

describe("createChainAdapters", () => {
  const made: number[] = [];
  const adapters = createChainAdapters([...GRAPHQL_TEST_CHAINS, TEST_BITCOIN_CHAIN], {
    evm: (config) => {
      made.push(config.id);
      const quoter = { ...evmFamily, chain: config } as unknown as QuotePort;
      // One chain's family offers only some roles: the others are not there.
      return config.id === 31338 ? { quoter } : everyRole(quoter as ChainAdapter);
    },
  });

  it("makes one adapter per chain with its vmType's factory, and refuses an unconfigured chain", () => {
    expect(made).toEqual([31338, 31339]);
    expect(adapters.quoter(31339).chain.id).toBe(31339);
    expect(adapters.all("quoter").map((quoter) => quoter.chain.id)).toEqual([31338, 31339]);
    expect(() => adapters.solver(1)).toThrow("chain 1 has no solver role");
  });

  it("gives a chain whose family has no factory no roles", () => {
    expect(adapters.quoterOf(TEST_BITCOIN_CHAIN.id)).toBeUndefined();
    expect(adapters.quoterOf(31338)?.chain.id).toBe(31338);
    expect(() => adapters.refunder(TEST_BITCOIN_CHAIN.id)).toThrow("chain 8253038 has no refunder role");
  });

  it("answers a chain's role ports, none for a chain without an adapter", () => {
    for (const role of [adapters.quoterOf, adapters.depositsOf, adapters.solverOf, adapters.refunderOf]) {
      expect(role(31339)?.chain.id).toBe(31339);
      expect(role(TEST_BITCOIN_CHAIN.id)).toBeUndefined();
      expect(role(1)).toBeUndefined();
    }
  });

  it("indexes each role on its own: a chain offers only the roles its factory gave", () => {
    expect(adapters.quoterOf(31338)?.chain.id).toBe(31338);
    for (const role of [adapters.depositsOf, adapters.solverOf, adapters.refunderOf])
      expect(role(31338)).toBeUndefined();
    expect(() => adapters.solver(31338)).toThrow("chain 31338 has no solver role");
    expect(adapters.all("solver").map((solver) => solver.chain.id)).toEqual([31339]);
    expect(adapters.all("quoter").map((quoter) => quoter.chain.id)).toEqual([31338, 31339]);
  });

  it("keys an address any configured family accepts, and nothing else", () => {
    expect(adapters.anyAddressKey("0x8ba1f109551bD432803012645Ac136ddd64DBA72")).toBe(
      "0x8ba1f109551bd432803012645ac136ddd64dba72",
    );
    expect(adapters.anyAddressKey("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")).toBeUndefined();
  });
});
