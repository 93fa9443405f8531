import { afterAll, describe, expect, it } from "vitest";
import { GRAPHQL_TEST_CHAINS, createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { RPC_KEY, keyedRpcChains } from "../../../../test/support/keyedRpcChains.js";
import { REGTEST_ADDRESS, TEST_BITCOIN_CHAIN } from "../../../../test/support/testBitcoinChain.js";
import { BITCOIN_NATIVE_CURRENCY } from "../../../chains/bitcoin/bitcoinFamily.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";

describe("GraphQL Chain", () => {
  const bus = createStatusBus();
  const server = createTestGraphqlServer({
    db: { query: () => Promise.reject(new Error("chains are served without the database")) },
    statusUpdates: createStatusFanout(bus),
    chains: [...GRAPHQL_TEST_CHAINS, TEST_BITCOIN_CHAIN],
  });
  afterAll(async () => {
    await server.close();
    await bus.close();
  });

  it("serves a Bitcoin chain: no RPC, the native id for the receiver, native BTC as its only currency", async () => {
    const response = await server.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `{ chain(id: ${TEST_BITCOIN_CHAIN.id}) { vmType httpRpcUrl wsRpcUrl blockTimeSeconds depository receiver
                    currencies { symbol address decimals metadata { isNative } } } }`,
        }),
      }),
    );
    const body = await response.json();
    expect(body).toEqual({
      data: {
        chain: {
          vmType: "bvm",
          httpRpcUrl: "",
          wsRpcUrl: null,
          blockTimeSeconds: 600,
          depository: REGTEST_ADDRESS,
          receiver: BITCOIN_NATIVE_CURRENCY,
          currencies: [{ symbol: "BTC", address: BITCOIN_NATIVE_CURRENCY, decimals: 8, metadata: { isNative: true } }],
        },
      },
    });
  });

  it("never publishes the solver's own RPC URLs, only the chains file's public ones (empty / null when unset)", async () => {
    const keyedBus = createStatusBus();
    const keyed = createTestGraphqlServer({
      db: { query: () => Promise.reject(new Error("chains are served without the database")) },
      statusUpdates: createStatusFanout(keyedBus),
      chains: keyedRpcChains(),
    });
    try {
      const response = await keyed.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ chains { id httpRpcUrl wsRpcUrl } chain(id: 31338) { httpRpcUrl } }" }),
        }),
      );
      const body = await response.text();
      expect(body).not.toContain(RPC_KEY);
      expect(JSON.parse(body)).toEqual({
        data: {
          chains: [
            { id: 31338, httpRpcUrl: "", wsRpcUrl: null },
            { id: 31339, httpRpcUrl: "https://rpc.example", wsRpcUrl: "wss://rpc.example" },
          ],
          chain: { httpRpcUrl: "" },
        },
      });
    } finally {
      await keyed.close();
      await keyedBus.close();
    }
  });
});
