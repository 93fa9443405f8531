import { type Address, type Hex, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hypevmFactories } from "../apps/families/hypevmFactories.js";
import type { DevnetExchange } from "../devnet/hypevm/startDevnetExchange.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { PERPS_USDC_CURRENCY } from "../src/chains/hypevm/hypevmFamily.js";
import { SEND_ASSET_TYPES } from "../src/chains/hypevm/sendAssetTypes.js";
import { signExchangeAction } from "../src/chains/hypevm/signExchangeAction.js";
import { depositNative } from "./support/depositNative.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

type Signer = DevnetExchange["accounts"][number];

// Deposits to the perps exchange (EVM → 1337: the solver's signed sendAsset pays the recipient on the exchange) and
// withdrawals from it (1337 → EVM: the user's authorize step, then the user's sendAsset to the depository under the
// authorized nonce), over the whole service and the devnet's local exchange.
describe("the perps exchange (1337), end to end", () => {
  let stack: TestStack;
  let exchange: DevnetExchange;
  beforeAll(async () => {
    stack = await startTestStack({ exchange: true });
    exchange = stack.devnetOf(hypevmFactories)!;
  });
  afterAll(async () => stack?.stop());

  const evm = () => stack.devnet.chains[0]!;
  const usdcOf = (chain: ReturnType<typeof evm>) =>
    chain.currencies.find((currency) => currency.symbol === "USDC")!.address as Address;
  const requestCount = async () =>
    Number((await stack.pool.query("SELECT count(*) FROM crossfill.requests")).rows[0].count);

  /** A withdrawal quote's two steps, done as the official client does, the exchange step posted to the devnet. */
  const authorize = async (user: Signer, quote: any) => {
    const { sign, post } = quote.steps[0].items[0].data;
    const signature = await user.signTypedData({ ...sign, message: sign.value });
    const response = await fetch(`${stack.api.url}${post.endpoint}?signature=${signature}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...post.body, referrer: "relay.link" }),
    });
    const answer = await response.json();
    expect(answer, JSON.stringify(answer)).toMatchObject({ message: "Nonce mapping authorized" });
  };
  const transfer = async (user: Signer, parameters: Record<string, unknown>) => {
    const signed = await signExchangeAction(
      user,
      { type: "sendAsset", signatureChainId: "0xa4b1", ...parameters } as any,
      SEND_ASSET_TYPES,
    );
    const answer = await fetch(`${exchange.url}/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(signed),
    }).then((res) => res.json());
    return { signed, answer };
  };
  /** A deposit to the exchange: the first EVM chain's currency in, perps USDC out. */
  const depositQuote = (user: string, recipient: string, originCurrency: string, amount: string) =>
    postQuote(stack.api.url, {
      user,
      recipient,
      originChainId: evm().id,
      destinationChainId: 1337,
      originCurrency,
      destinationCurrency: PERPS_USDC_CURRENCY,
      amount,
      tradeType: "EXACT_INPUT",
    });
  const withdrawalQuote = (user: Signer, recipient: string, amount: string, extra: Record<string, unknown> = {}) =>
    postQuote(stack.api.url, {
      user: user.address,
      recipient,
      originChainId: 1337,
      destinationChainId: evm().id,
      originCurrency: PERPS_USDC_CURRENCY,
      destinationCurrency: usdcOf(evm()),
      amount,
      tradeType: "EXACT_INPUT",
      protocolVersion: "v2",
      ...extra,
    });

  it("lists 1337 in /chains with perps USDC at 8 decimals", async () => {
    const { chains } = (await (await fetch(`${stack.api.url}/chains`)).json()) as { chains: any[] };
    expect(chains.find((chain) => chain.id === 1337)).toMatchObject({
      vmType: "hypevm",
      currency: { symbol: "USDC", address: PERPS_USDC_CURRENCY, decimals: 8 },
    });
  });

  it("deposits EVM USDC to an exchange account never seen before: the solver's sendAsset pays it to the unit", async () => {
    const origin = evm();
    const user = stack.devnet.accounts[2]!;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await depositQuote(user.address, recipient, usdcOf(origin), "25000000");
    expect(quote.status).toBe(200);
    const out = BigInt(quote.body.details.currencyOut.amount);
    // 6 decimals in, 8 out: the relayer's fee (in USDC's 6 decimals) taken, the rest scaled by exactly 100.
    expect(out).toBe((25_000_000n - BigInt(quote.body.fees.relayer.amount)) * 100n);
    const solverBefore = exchange.ledger.perpsBalance(exchange.solver.address);
    await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack.api.url, quote.body.steps.at(-1).requestId, { timeoutMs: 45_000 });
    expect(last.status).toBe("success");
    expect(exchange.ledger.perpsBalance(recipient)).toBe(out);
    expect(solverBefore - exchange.ledger.perpsBalance(exchange.solver.address)).toBe(out);
    // The fill is the ledger's transfer from the solver to the recipient.
    const [fillHash] = last.txHashes as string[];
    expect(exchange.ledger.tx(fillHash!)).toMatchObject({
      user: exchange.solver.address,
      action: { type: "sendAsset", destination: recipient.toLowerCase() },
    });
  });

  it("does not fill an underpaid deposit to the exchange", async () => {
    const origin = evm();
    const user = stack.devnet.accounts[3]!;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await depositQuote(user.address, recipient, zeroAddress, "10000000000000000");
    expect(quote.status).toBe(200);
    const devnetChain = stack.devnet.chains[0]!;
    await depositNative(devnetChain as any, user as any, quote.body.protocol.v2.orderId, 5_000_000_000_000_000n);
    // Failed as underpaid, then refunded on the origin chain.
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, { until: ["refund", "success"] });
    expect(last).toMatchObject({ status: "refund", failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
    expect(exchange.ledger.perpsBalance(recipient)).toBe(0n);
  });

  it("withdraws perps USDC to EVM USDC through the authorize and exchange steps, 8 decimals to 6 exactly", async () => {
    const destination = evm();
    const user = exchange.accounts[0]!;
    const recipient = stack.devnet.accounts[4]!.address;
    const quote = await withdrawalQuote(user, recipient, "1000000000");
    expect(quote.status).toBe(200);
    expect(quote.body.steps.map((step: any) => [step.id, step.kind])).toEqual([
      ["authorize", "signature"],
      ["deposit", "transaction"],
    ]);
    expect(Object.keys(quote.body.fees).sort()).toEqual(
      ["app", "gas", "relayer", "relayerGas", "relayerService", "subsidized"].sort(),
    );
    const out = BigInt(quote.body.details.currencyOut.amount);
    expect(out).toBeGreaterThan(9_000_000n);
    const client = createEvmChainClient(destination);
    const recipientBefore = await client.balanceOf(recipient, usdcOf(destination));
    const depositoryBefore = exchange.ledger.perpsBalance(exchange.depository.address);

    await authorize(user, quote.body);
    const { parameters } = quote.body.steps[1].items[0].data.action;
    const { signed, answer } = await transfer(user, parameters);
    expect(answer).toEqual({ status: "ok", response: { type: "default" } });
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, { timeoutMs: 45_000 });
    expect(last.status).toBe("success");
    expect(await client.balanceOf(recipient, usdcOf(destination))).toBe(recipientBefore + out);
    expect(exchange.ledger.perpsBalance(exchange.depository.address)).toBe(depositoryBefore + 1_000_000_000n);
    expect((last.inTxHashes as string[])[0]).toBe(exchange.ledger.updates(user.address).at(-1)!.hash);

    // The same signed transfer again is refused by the exchange: paid once.
    const replay = await fetch(`${exchange.url}/exchange`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(signed),
    }).then((res) => res.json());
    expect(replay.status).toBe("err");
    expect(exchange.ledger.perpsBalance(exchange.depository.address)).toBe(depositoryBefore + 1_000_000_000n);
  });

  it("refuses a withdrawal without protocolVersion or above the user's withdrawable, storing nothing", async () => {
    const user = exchange.accounts[1]!;
    const before = await requestCount();
    const unversioned = await withdrawalQuote(user, stack.devnet.accounts[4]!.address, "100000000", {
      protocolVersion: undefined,
    });
    expect(unversioned).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });
    expect(unversioned.body.message).toMatch(/protocolVersion/);
    const tooMuch = await withdrawalQuote(user, stack.devnet.accounts[4]!.address, "20000000000000");
    expect(tooMuch).toMatchObject({ status: 400, body: { errorCode: "INSUFFICIENT_FUNDS" } });
    expect(await requestCount()).toBe(before);
  });

  it("credits no transfer signed for another nonce, destination or signer, or for less than the quote", async () => {
    const destination = evm();
    const [, alice, bob] = exchange.accounts as Signer[];
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const client = createEvmChainClient(destination);

    const quote = await withdrawalQuote(alice!, recipient, "500000000");
    expect(quote.status).toBe(200);
    await authorize(alice!, quote.body);
    const { parameters } = quote.body.steps[1].items[0].data.action;
    const nonce = parameters.nonce as number;
    // Another nonce (not the authorized one), another destination with the authorized nonce, another signer's
    // transfer under the authorized nonce.
    expect((await transfer(alice!, { ...parameters, nonce: nonce + 1 })).answer.status).toBe("ok");
    expect((await transfer(bob!, { ...parameters })).answer.status).toBe("ok");
    const elsewhere = await quoteAndAuthorizeElsewhere(alice!);
    expect(elsewhere.status).toBe("ok");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const status = await (await fetch(`${stack.api.url}/intents/status/v3?requestId=${quote.body.requestId}`)).json();
    expect(status.status).toBe("waiting");
    expect(await client.balanceOf(recipient, usdcOf(destination))).toBe(0n);
    // Their deposits are recorded without an order, for the unmatched refund.
    const { rows } = await stack.pool.query(
      "SELECT depositor, order_id FROM crossfill.deposit_facts WHERE chain_id = 1337 AND order_id = '' ORDER BY depositor",
    );
    expect(rows.map((row) => row.depositor)).toEqual(
      expect.arrayContaining([alice!.address.toLowerCase(), bob!.address.toLowerCase()]),
    );

    // Less than the quote under the authorized nonce of a second request: matched, underpaid, never filled.
    const second = await withdrawalQuote(alice!, recipient, "500000000");
    await authorize(alice!, second.body);
    const secondParameters = second.body.steps[1].items[0].data.action.parameters;
    expect((await transfer(alice!, { ...secondParameters, amount: "1.0" })).answer.status).toBe("ok");
    const { last } = await pollStatus(stack.api.url, second.body.requestId, {
      until: ["refund", "failure", "success", "pending"],
    });
    expect(last.status).not.toBe("success");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await client.balanceOf(recipient, usdcOf(destination))).toBe(0n);

    /** The authorized nonce spent on a transfer to another account than the depository. */
    async function quoteAndAuthorizeElsewhere(user: Signer) {
      const other = await withdrawalQuote(user, recipient, "500000000");
      await authorize(user, other.body);
      const moved = other.body.steps[1].items[0].data.action.parameters;
      const result = await transfer(user, { ...moved, destination: bob!.address.toLowerCase() });
      const after = await (await fetch(`${stack.api.url}/intents/status/v3?requestId=${other.body.requestId}`)).json();
      expect(after.status).toBe("waiting");
      return result.answer;
    }
  });
});
