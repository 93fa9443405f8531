import pg from "pg";
import { describe, expect, it } from "vitest";
import { GRAPHQL_TEST_CHAINS } from "../../test/support/createTestGraphqlServer.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { familyPollerChains } from "./familyPollerChains.js";

describe("familyPollerChains", () => {
  it("polls each chain of a poller family (not the EVM ones: Ponder's), Bitcoin from its start block, every tenth of a block time up to 5 s", () => {
    const fast = { ...TEST_BITCOIN_CHAIN, id: 2, blockTimeSeconds: 2, startBlock: 7 };
    const chains = familyPollerChains([...GRAPHQL_TEST_CHAINS, TEST_BITCOIN_CHAIN, fast], new pg.Pool());
    expect(chains.map(({ chainId, startHeight, pollEveryMs }) => ({ chainId, startHeight, pollEveryMs }))).toEqual([
      { chainId: TEST_BITCOIN_CHAIN.id, startHeight: 0, pollEveryMs: 5_000 },
      { chainId: 2, startHeight: 7, pollEveryMs: 200 },
    ]);
  });
});
