import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allFamilyFactories } from "../../apps/families/factories.js";
import { pollStatus } from "../support/pollStatus.js";
import { postQuote } from "../support/postQuote.js";
import { type TestStack, startTestStack } from "../support/startTestStack.js";
import { TEST_NATIVE_CURRENCY } from "./testChainFamily.js";
import { TEST_DEVNET_CHAIN_ID, type TestDevnet, testFamilyFactories } from "./testFamilyFactories.js";

// The whole service with the test-only family registered beside FAMILIES: nothing outside test/testFamily/ names it
// but the `families` line below.
describe("a family registered in one line, end to end (the test-only family)", () => {
  let stack: TestStack;
  let test: TestDevnet;
  beforeAll(async () => {
    stack = await startTestStack({
      families: [...allFamilyFactories(), testFamilyFactories],
      // Its coin's price, as an operator's PRICES would name it.
      prices: { TST: "1" },
    });
    test = stack.devnetOf(testFamilyFactories)!;
  });
  afterAll(async () => stack?.stop());

  it("is listed by GET /chains beside the devnet's EVM chains, with the fields its family publishes", async () => {
    const { chains } = (await (await fetch(`${stack.api.url}/chains`)).json()) as { chains: any[] };
    expect(chains.map((chain) => [chain.id, chain.vmType])).toEqual([
      ...stack.devnet.chains.map((chain) => [chain.id, "evm"]),
      [TEST_DEVNET_CHAIN_ID, "testvm"],
    ]);
    expect(chains.at(-1)).toMatchObject({
      currency: { symbol: "TST", address: TEST_NATIVE_CURRENCY, decimals: 6 },
      solverAddresses: [test.chain.solver],
      // Its indexer role (the family's poller) records its head like any family's.
      blockProductionLagging: false,
    });
  });

  it("is quoted as origin and as destination, its capabilities refusing what it cannot do", async () => {
    const evm = stack.devnet.chains[0]!;
    const user = stack.devnet.accounts[0]!.address;
    const fromTest = await postQuote(stack.api.url, {
      user: test.user,
      recipient: user,
      originChainId: TEST_DEVNET_CHAIN_ID,
      destinationChainId: evm.id,
      originCurrency: TEST_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      // 3,000 TST at $1 is 1 ETH at $3,000.
      amount: "3000000000",
      tradeType: "EXACT_INPUT",
    });
    expect(fromTest.status).toBe(200);
    expect(fromTest.body.steps[0].items[0].data).toMatchObject({ to: test.chain.depository, value: "3000000000" });
    const out = BigInt(fromTest.body.details.currencyOut.amount);
    expect(out).toBeGreaterThan(990_000_000_000_000_000n);
    expect(out).toBeLessThan(1_000_000_000_000_000_000n);

    const toTestBody = {
      user,
      recipient: test.user,
      originChainId: evm.id,
      destinationChainId: TEST_DEVNET_CHAIN_ID,
      originCurrency: zeroAddress,
      destinationCurrency: TEST_NATIVE_CURRENCY,
      amount: "1000000000000000000",
      tradeType: "EXACT_INPUT",
    };
    const toTest = await postQuote(stack.api.url, toTestBody);
    expect(toTest.status).toBe(200);
    expect(BigInt(toTest.body.details.currencyOut.amount)).toBeGreaterThan(2_970_000_000n);

    const withCalls = await postQuote(stack.api.url, {
      ...toTestBody,
      txs: [{ to: test.user, value: "0", data: "0x" }],
    });
    expect(withCalls).toMatchObject({ status: 400, body: { message: "txs: a test chain takes no calls" } });
  });

  it("takes a deposit through its poller and is filled on the EVM chain", async () => {
    const evm = stack.devnet.chains[0]!;
    const recipient = stack.devnet.accounts[1]!.address;
    const quote = await postQuote(stack.api.url, {
      user: test.user,
      recipient,
      originChainId: TEST_DEVNET_CHAIN_ID,
      destinationChainId: evm.id,
      originCurrency: TEST_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      amount: "300000000",
      tradeType: "EXACT_INPUT",
    });
    expect(quote.status).toBe(200);
    const { requestId } = quote.body.steps[0];
    const { memo, value } = quote.body.steps[0].items[0].data;
    const txHash = test.ledger.deposit(test.user, BigInt(value), memo, test.chain.depository);
    const done = await pollStatus(stack.api.url, requestId, { timeoutMs: 45_000 });
    expect(done.last).toMatchObject({ status: "success", inTxHashes: [txHash] });
  });
});
