import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hypevmChainConfigSchema, hypevmChainFamily } from "../../src/chains/hypevm/hypevmChainFamily.js";
import { devnetExchangeChain } from "./devnetExchangeChain.js";
import { type DevnetExchange, startDevnetExchange } from "./startDevnetExchange.js";

describe("devnetExchangeChain", () => {
  let exchange: DevnetExchange;
  beforeAll(async () => {
    exchange = await startDevnetExchange();
  });
  afterAll(() => exchange?.stop());

  it("is a valid chains-file entry of chain 1337 naming the exchange's accounts and currencies", async () => {
    const entry = devnetExchangeChain(exchange);
    expect(entry.currencies.map((c) => [c.symbol, c.address, c.decimals])).toEqual([
      ["USDC", "0x00000000000000000000000000000000", 8],
      ["USDC", exchange.tokens[0]!.tokenId, 8],
      ["HYPE", exchange.tokens[1]!.tokenId, 8],
    ]);
    expect(entry.accounts[0]).toEqual({
      address: exchange.accounts[0]!.address,
      privateKey: exchange.accounts[0]!.privateKey,
    });
    const chain = hypevmChainConfigSchema.parse(entry);
    expect(chain).toMatchObject({ id: 1337, vmType: "hypevm", exchangeUrl: exchange.url, network: "Testnet" });
    expect(hypevmChainFamily.capabilities(chain).destinationRefusal).toBeUndefined();
    // The URL it names is the running exchange, which knows the depository and funded the solver.
    const state = await fetch(`${chain.exchangeUrl}/info`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "clearinghouseState", user: chain.solver }),
    }).then((r) => r.json());
    expect(state).toMatchObject({ withdrawable: "10000000.0" });
  });
});
