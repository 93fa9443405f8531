import { LogLevel, createClient, getClient } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { type Address, createWalletClient, http, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/** The official client of the interface, unmodified, pointed at our base URL. */
describe("@relayprotocol/relay-sdk against Crossfill", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
    createClient({
      baseApiUrl: stack.api.url,
      source: "crossfill-tests",
      pollingInterval: 250,
      maxPollingAttemptsBeforeTimeout: 120,
      logLevel: LogLevel.None,
    });
    await configureDynamicChains();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("loads our chains through GET /chains", () => {
    expect(getClient().chains.map((chain) => chain.id)).toEqual(stack.devnet.chains.map((chain) => chain.id));
  });

  it.each([
    ["a native bridge", "ETH", ["deposit"]],
    ["an ERC-20 bridge with approve", "USDC", ["approve", "deposit"]],
  ])("runs getQuote then execute to success for %s", async (_name, symbol, stepIds) => {
    const [origin, destination] = stack.devnet.chains;
    const currencyOf = (chain: typeof origin) =>
      symbol === "ETH"
        ? zeroAddress
        : (chain.currencies.find((currency) => currency.symbol === symbol)!.address as Address);
    const account = stack.devnet.accounts[symbol === "ETH" ? 0 : 1];
    const recipient = stack.devnet.accounts[2].address;
    const wallet = createWalletClient({ account, transport: http(origin.rpcUrl) });
    const destinationClient = createEvmChainClient(destination);
    const before = await destinationClient.balanceOf(recipient, currencyOf(destination));

    const quote = await getClient().actions.getQuote({
      chainId: origin.id,
      toChainId: destination.id,
      currency: currencyOf(origin),
      toCurrency: currencyOf(destination),
      amount: symbol === "ETH" ? "50000000000000000" : "75000000",
      tradeType: "EXACT_INPUT",
      user: account.address,
      recipient,
    });
    expect(quote.steps.map((step) => step.id)).toEqual(stepIds);
    const seen = new Set<string>();
    const { data } = await getClient().actions.execute({
      quote,
      wallet,
      disableCapabilitiesCheck: true,
      onProgress: ({ currentStepItem }) => {
        const status = (currentStepItem as { checkStatus?: string } | undefined)?.checkStatus;
        if (status) seen.add(status);
      },
    });
    const deposit = data.steps.find((step) => step.id === "deposit")!;
    expect(deposit.items?.[0].status).toBe("complete");
    expect(seen.has("success")).toBe(true);
    const out = BigInt(quote.details!.currencyOut!.amount!);
    expect(await destinationClient.balanceOf(recipient, currencyOf(destination))).toBe(before + out);
  });
});
