import { getClient } from "@relayprotocol/relay-sdk";
import { type Address, createWalletClient, http, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundSponsor, sponsorBalance } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { connectRelayClient } from "./support/connectRelayClient.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/** The official client of the interface, unmodified, pointed at our base URL. */
describe("@relayprotocol/relay-sdk against Crossfill", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
    await connectRelayClient(stack.api.url);
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

  it("quotes with appFees through getQuote, and reads and claims them with getAppFees and claimAppFees", async () => {
    const [origin, destination] = stack.devnet.chains;
    const usdc = (chain: typeof origin) => chain.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const user = stack.devnet.accounts[3];
    const app = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await getClient().actions.getQuote({
      chainId: origin.id,
      toChainId: destination.id,
      currency: usdc(origin),
      toCurrency: usdc(destination),
      amount: "40000000",
      tradeType: "EXACT_INPUT",
      user: user.address,
      recipient: user.address,
      options: { appFees: [{ recipient: app.address, fee: "250" }] },
    });
    expect(quote.fees?.app?.amount).toBe("1000000");
    await getClient().actions.execute({
      quote,
      wallet: createWalletClient({ account: user, transport: http(origin.rpcUrl) }),
      disableCapabilitiesCheck: true,
      onProgress: () => undefined,
    });

    // Earned with the success (the receipt's fill is recorded, and its app fees credited, in that transaction).
    const balances = await getClient().actions.getAppFees({ wallet: app.address });
    expect(balances).toEqual([
      expect.objectContaining({ amount: "1000000", currency: expect.objectContaining({ chainId: origin.id }) }),
    ]);
    const { data } = await getClient().actions.claimAppFees({
      wallet: createWalletClient({ account: app, transport: http(origin.rpcUrl) }),
      chainId: origin.id,
      currency: usdc(origin),
      recipient: payee,
      amount: "600000",
    });
    expect(data.steps[0].items?.[0].status).not.toBe("incomplete");
    const originClient = createEvmChainClient(origin);
    const deadline = Date.now() + 30_000;
    while ((await originClient.balanceOf(payee, usdc(origin))) === 0n && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await originClient.balanceOf(payee, usdc(origin))).toBe(600_000n);
    expect((await getClient().actions.getAppFees({ wallet: app.address })).map((b) => b.amount)).toEqual(["400000"]);
  });

  it("quotes with subsidizeFees through getQuote (the key passed as a header) and fills with the sponsor paying", async () => {
    const [origin, destination] = stack.devnet.chains;
    const usdc = (chain: typeof origin) => chain.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const key = await createApiKey(stack.pool, stack.serverKey, {
      name: "sdk-sponsor",
      integrator: "sdk-sponsor",
      sponsors: true,
    });
    await withTransaction(stack.pool, (db) =>
      fundSponsor(db, { integrator: "sdk-sponsor", amountMicroUsd: 1_000_000n }),
    );
    const user = stack.devnet.accounts[3];
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    // The client sends x-api-key only to its own hosted URLs; getQuote's third argument carries it to ours.
    const quote = await getClient().actions.getQuote(
      {
        chainId: origin.id,
        toChainId: destination.id,
        currency: usdc(origin),
        toCurrency: usdc(destination),
        amount: "20000000",
        tradeType: "EXACT_INPUT",
        user: user.address,
        recipient,
        options: { subsidizeFees: true },
      },
      false,
      { "x-api-key": key.key },
    );
    const sponsored = BigInt(quote.fees!.subsidized!.amount!);
    expect(sponsored).toBe(BigInt(quote.fees!.relayer!.amount!));
    expect(quote.details!.currencyOut!.amount).toBe("20000000");
    await getClient().actions.execute({
      quote,
      wallet: createWalletClient({ account: user, transport: http(origin.rpcUrl) }),
      disableCapabilitiesCheck: true,
      onProgress: () => undefined,
    });
    expect(await createEvmChainClient(destination).balanceOf(recipient, usdc(destination))).toBe(20_000_000n);
    expect(await sponsorBalance(stack.pool, "sdk-sponsor")).toBe(1_000_000n - sponsored);
  });
});
