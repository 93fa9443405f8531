import { describe, expect, it } from "vitest";
import { createChainAdapters } from "../../src/chains/chainAdapters.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import type { ChainAvailability } from "../../src/chains/createChainAvailability.js";
import { FAMILIES } from "../../src/chains/families.js";
import { chainRoutes } from "../../src/gateway/rest/chainRoutes.js";
import { createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { createQuote } from "../../src/quote/createQuote.js";
import { createSolverInventory } from "../../src/quote/solverInventory.js";
import type { NewRequest } from "../../schema/requests.js";
import { TEST_NATIVE_CURRENCY, TestLedger, testChain, testFamilyModule, testPollerSource } from "./testChainFamily.js";

const address = (digit: string) => `tst1${digit.repeat(40)}`;
const chain = testChain;
const open: ChainAvailability = {
  disabled: false,
  depositEnabled: true,
  partialDisableLimitUsd: null,
  blockProductionLagging: false,
  reason: null,
  solverCurrencies: [],
};

describe("a chain family registered in one line (test-only family)", () => {
  const ledger = new TestLedger();
  const chains = [chain(41001), chain(41002)];
  // The one registration: the test family beside FAMILIES, its adapter factory beside the others'.
  const test = testFamilyModule(ledger);
  const registry = createChainRegistry(chains, [...FAMILIES, test.family]);
  const adapters = createChainAdapters(chains, test.adapterFactories);

  it("is listed by GET /chains with the fields its family publishes", async () => {
    const app = chainRoutes({ registry, adapters, quoteEngine: { availability: async () => ({ ...open }) } });
    const body = (await (await app.request("/chains")).json()) as { chains: Record<string, unknown>[] };
    expect(body.chains.map((record) => [record.id, record.vmType, record.httpRpcUrl])).toEqual([
      [41001, "testvm", ""],
      [41002, "testvm", ""],
    ]);
    expect(body.chains[0]).toMatchObject({
      currency: { symbol: "TST", address: TEST_NATIVE_CURRENCY, decimals: 6 },
      contracts: { relayReceiver: TEST_NATIVE_CURRENCY },
      solverAddresses: [address("5")],
      protocol: { v2: { chainId: "test-41001", depository: address("d") } },
    });
  });

  it("is quoted through its adapter, its capabilities refusing what it cannot do", async () => {
    ledger.balances.set(address("5"), 1_000_000_000n);
    ledger.balances.set(address("a"), 5_000_000n);
    const saved: NewRequest[] = [];
    const deps = {
      registry,
      adapters,
      prices: createStaticPriceSource({ TST: "1" }),
      inventory: createSolverInventory(adapters),
      saveRequest: async (request: NewRequest) => void saved.push(request),
      settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
      availability: async () => ({ ...open }),
      sponsorBalance: async () => 0n,
    };
    const body = {
      user: address("a"),
      originChainId: 41001,
      destinationChainId: 41002,
      originCurrency: TEST_NATIVE_CURRENCY,
      destinationCurrency: TEST_NATIVE_CURRENCY,
      amount: "2000000",
      tradeType: "EXACT_INPUT",
    };
    const quote = await createQuote(deps, body, {});
    expect(quote.steps[0].items[0].data.to).toBe(address("d"));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ originChainId: 41001, destinationChainId: 41002, user: address("a") });

    await expect(
      createQuote(deps, { ...body, txs: [{ to: address("b"), value: "0", data: "0x" }] }, {}),
    ).rejects.toMatchObject({ errorCode: "INVALID_INPUT", message: "txs: a test chain takes no calls" });
    await expect(createQuote(deps, { ...body, destinationChainId: 41001 }, {})).rejects.toMatchObject({
      errorCode: "UNSUPPORTED_ROUTE",
    });
  });

  it("feeds the poller gapless blocks of its deposits, and the manual index the same facts", async () => {
    const txHash = ledger.deposit(address("a"), 2_000_000n, `0x${"12".repeat(32)}`);
    const source = testPollerSource(ledger);
    const head = await source.head();
    const block = await source.block(head.height);
    expect(block.parentHash).toBe(await source.blockHash(head.height - 1));
    expect(block.deposits).toMatchObject([{ txHash, amount: 2_000_000n }]);
    const facts = await adapters
      .depositsOf(41001)!
      .readDepositFacts(
        registry.family(chains[0]).codecOf(chains[0]).parseTransactionHash(txHash.toUpperCase().replace("TX", "tx"))!,
      );
    expect(facts).toMatchObject([{ chainId: 41001, txHash, blockNumber: BigInt(head.height) }]);
  });
});
