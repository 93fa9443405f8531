import { getClient, axios as sdkAxios } from "@relayprotocol/relay-sdk";
import axios from "axios";
import { type Address, createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hypevmFactories } from "../apps/families/hypevmFactories.js";
import type { DevnetExchange } from "../devnet/hypevm/startDevnetExchange.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { PERPS_USDC_CURRENCY } from "../src/chains/hypevm/hypevmFamily.js";
import { connectRelayClient } from "./support/connectRelayClient.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/** Where the official client posts the exchange step, whatever chain it is given: the public exchange. */
const PUBLIC_EXCHANGE = "https://api.hyperliquid.xyz/exchange";

/**
 * The official client, unmodified, on the perps exchange (1337) both ways. Its one fixed address, the public
 * exchange it posts the signed transfer to (with axios' default instance), is pointed at the devnet exchange by an
 * interceptor there; the body it posts (`{action, nonce, signature: {r, s, v}}`) is left as it made it. Its own
 * instance (exported as `axios`), which talks to us, is only listened to: the quotes we answered, the authorize bodies.
 */
describe("@relayprotocol/relay-sdk: the perps exchange ↔ EVM", () => {
  let stack: TestStack;
  let exchange: DevnetExchange;
  /** The `/quote` answers as the service sent them, and what the client posted to the public exchange. */
  const quoteAnswers: Array<{ steps: unknown[] }> = [];
  const exchangePosts: unknown[] = [];
  const authorizePosts: unknown[] = [];
  const interceptors: { exchange?: number; quote?: number; authorize?: number } = {};
  beforeAll(async () => {
    stack = await startTestStack({ exchange: true });
    exchange = stack.devnetOf(hypevmFactories)!;
    await connectRelayClient(stack.api.url, 160);
    interceptors.exchange = axios.interceptors.request.use((config) => {
      if (config.url !== PUBLIC_EXCHANGE) return config;
      exchangePosts.push(config.data);
      return { ...config, url: `${exchange.url}/exchange` };
    });
    interceptors.authorize = sdkAxios.interceptors.request.use((config) => {
      if (config.url?.startsWith(`${stack.api.url}/authorize`)) authorizePosts.push(JSON.parse(config.data));
      return config;
    });
    interceptors.quote = sdkAxios.interceptors.response.use((response) => {
      if (response.config.url === `${stack.api.url}/quote/v2`) quoteAnswers.push(structuredClone(response.data));
      return response;
    });
  });
  afterAll(async () => {
    if (interceptors.exchange !== undefined) axios.interceptors.request.eject(interceptors.exchange);
    if (interceptors.authorize !== undefined) sdkAxios.interceptors.request.eject(interceptors.authorize);
    if (interceptors.quote !== undefined) sdkAxios.interceptors.response.eject(interceptors.quote);
    await stack?.stop();
  });

  const evm = () => stack.devnet.chains[0]!;
  const usdcOf = (chain: ReturnType<typeof evm>) =>
    chain.currencies.find((currency) => currency.symbol === "USDC")!.address as Address;

  it("lists 1337 among its chains and quotes EVM → 1337 with our deposit step unchanged; execute pays it to the unit", async () => {
    expect(getClient().chains.map((chain) => chain.id)).toContain(1337);
    const origin = evm();
    const account = stack.devnet.accounts[1]!;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await getClient().actions.getQuote({
      chainId: origin.id,
      toChainId: 1337,
      currency: usdcOf(origin),
      toCurrency: PERPS_USDC_CURRENCY,
      amount: "30000000",
      tradeType: "EXACT_INPUT",
      user: account.address,
      recipient,
    });
    expect(quote.steps).toEqual(quoteAnswers.at(-1)!.steps);
    expect(quote.steps.map((step) => step.id)).toEqual(["approve", "deposit"]);
    const wallet = createWalletClient({ account, transport: http(origin.rpcUrl) });
    const { data } = await getClient().actions.execute({ quote, wallet, disableCapabilitiesCheck: true });
    expect(data.steps.find((step) => step.id === "deposit")!.items?.[0]!.status).toBe("complete");
    const out = BigInt(quote.details!.currencyOut!.amount!);
    expect(exchange.ledger.perpsBalance(recipient)).toBe(out);
    expect(exchangePosts).toEqual([]);
  });

  it("quotes 1337 → EVM with authorize and deposit unchanged; execute signs both, posts the authorize (with its referrer) to us and the transfer to the exchange, to success", async () => {
    const destination = evm();
    const user = exchange.accounts[3]!;
    const recipient = stack.devnet.accounts[4]!.address;
    const client = createEvmChainClient(destination);
    const recipientBefore = await client.balanceOf(recipient, usdcOf(destination));
    const userBefore = exchange.ledger.perpsBalance(user.address);
    const depositoryBefore = exchange.ledger.perpsBalance(exchange.depository.address);

    const quote = await getClient().actions.getQuote({
      chainId: 1337,
      toChainId: destination.id,
      currency: PERPS_USDC_CURRENCY,
      toCurrency: usdcOf(destination),
      amount: "2500000000",
      tradeType: "EXACT_INPUT",
      user: user.address,
      recipient,
      options: { protocolVersion: "v2" } as never,
    });
    expect(quote.steps).toEqual(quoteAnswers.at(-1)!.steps);
    expect(quote.steps.map((step) => [step.id, step.kind])).toEqual([
      ["authorize", "signature"],
      ["deposit", "transaction"],
    ]);
    const [authorizeItem] = quote.steps[0]!.items!;
    expect(authorizeItem!.check).toBeUndefined();
    const deposit = quote.steps[1]!.items![0]!.data as any;
    expect(deposit).toMatchObject({
      action: {
        type: "sendAsset",
        parameters: {
          destination: exchange.depository.address.toLowerCase(),
          amount: "25",
          nonce: Number(authorizeItem!.data.sign.value.nonce),
        },
      },
      nonce: Number(authorizeItem!.data.sign.value.nonce),
      eip712PrimaryType: "HyperliquidTransaction:SendAsset",
    });

    // The wallet is on an EVM chain: the client signs both steps with that chain's id, whatever the quote named.
    const walletChain = destination;
    const wallet = createWalletClient({ account: user, transport: http(walletChain.rpcUrl) });
    const { data } = await getClient().actions.execute({ quote, wallet, disableCapabilitiesCheck: true });
    expect(data.steps.map((step) => step.id)).toEqual(["authorize", "hyperliquid-signature"]);
    expect(data.steps.every((step) => step.items?.every((item) => item.status === "complete"))).toBe(true);
    expect(authorizePosts).toEqual([
      expect.objectContaining({ type: "nonce-mapping", signatureChainId: walletChain.id, referrer: "crossfill-tests" }),
    ]);
    // The transfer as the client posted it: the quoted action, signed on the wallet's chain, its nonce the mapped one.
    expect(exchangePosts).toHaveLength(1);
    const posted = exchangePosts[0];
    expect(posted).toEqual({
      action: {
        ...deposit.action.parameters,
        type: "sendAsset",
        signatureChainId: `0x${walletChain.id.toString(16)}`,
      },
      nonce: deposit.nonce,
      signature: { r: expect.any(String), s: expect.any(String), v: expect.any(Number) },
    });

    const status = await (
      await fetch(`${stack.api.url}/intents/status/v3?requestId=${quote.steps[0]!.requestId}`)
    ).json();
    expect(status.status).toBe("success");
    const out = BigInt(quote.details!.currencyOut!.amount!);
    expect(await client.balanceOf(recipient, usdcOf(destination))).toBe(recipientBefore + out);
    expect(exchange.ledger.perpsBalance(user.address)).toBe(userBefore - 2_500_000_000n);
    expect(exchange.ledger.perpsBalance(exchange.depository.address)).toBe(depositoryBefore + 2_500_000_000n);
  });
});
