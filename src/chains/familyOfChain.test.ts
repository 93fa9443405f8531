import { describe, expect, it } from "vitest";
import { GRAPHQL_TEST_CHAINS } from "../../test/support/createTestGraphqlServer.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { chainsOfFamily, familyOfChain } from "./familyOfChain.js";

describe("familyOfChain", () => {
  it("finds a chain's family among the registered ones, and refuses a chain of none", () => {
    expect(familyOfChain(TEST_BITCOIN_CHAIN).vmType).toBe("bvm");
    expect(familyOfChain(GRAPHQL_TEST_CHAINS[0]).vmType).toBe("evm");
    expect(() => familyOfChain({ vmType: "nonesuch" })).toThrow("no chain family nonesuch");
    expect(() => familyOfChain(TEST_BITCOIN_CHAIN, [])).toThrow("no chain family bvm");
  });
});

describe("chainsOfFamily", () => {
  it("keeps the chains of one family, in their order", () => {
    const chains = [GRAPHQL_TEST_CHAINS[0], TEST_BITCOIN_CHAIN, GRAPHQL_TEST_CHAINS[1]];
    expect(chainsOfFamily(chains, "evm")).toEqual([GRAPHQL_TEST_CHAINS[0], GRAPHQL_TEST_CHAINS[1]]);
    expect(chainsOfFamily(chains, "bvm")).toEqual([TEST_BITCOIN_CHAIN]);
    expect(chainsOfFamily(chains, "svm")).toEqual([]);
  });
});
