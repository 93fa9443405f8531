import { type Address, type Hex, parseSignature, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hypevmFactories } from "../apps/families/hypevmFactories.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import type { DevnetExchange } from "../devnet/hypevm/startDevnetExchange.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { PERPS_USDC_CURRENCY } from "../src/chains/hypevm/hypevmFamily.js";
import { SEND_ASSET_TYPES } from "../src/chains/hypevm/sendAssetTypes.js";
import { ACTIVATION_FEE } from "../src/chains/hypevm/transferFee.js";
import { signExchangeAction } from "../src/chains/hypevm/signExchangeAction.js";
import { depositNative } from "./support/depositNative.js";
import { evmToFamilyFillCase } from "./support/evmToFamilyFillCase.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

type Signer = DevnetExchange["accounts"][number];

const UNMATCHED_AFTER_SECONDS = 3;

// Deposits to the perps exchange (EVM → 1337: the solver's signed sendAsset pays the recipient on the exchange) and
// withdrawals from it (1337 → EVM: the user's authorize step, then the user's sendAsset to the depository under the
// authorized nonce), over the whole service and the devnet's local exchange.
describe("the perps exchange (1337), end to end", () => {
  let stack: TestStack;
  let exchange: DevnetExchange;
  beforeAll(async () => {
    // Unmapped transfers to the depository are refunded after 3 s of the exchange's ledger instead of an hour.
    stack = await startTestStack({ exchange: true, exchangeRefundUnmatchedAfterBlocks: UNMATCHED_AFTER_SECONDS });
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
    // The exchange names an accepted transfer in its ledger (a hash of where it committed it).
    return { signed, answer, hash: exchange.ledger.updates(user.address).at(-1)?.hash };
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

  it("pays ETH → perps USDC to a new exchange account with the solver's sendAsset; paid once, to the unit", async () => {
    await evmToFamilyFillCase({
      stack: () => stack,
      chainId: () => 1337,
      currency: PERPS_USDC_CURRENCY,
      recipient: () => privateKeyToAccount(generatePrivateKey()).address,
      addressKey: (address) => address.toLowerCase(),
      solver: () => exchange.solver.address,
      balance: async (owner) => exchange.ledger.perpsBalance(owner),
      // 0.1 ETH at $3,000 is $300: 300 perps USDC (8 decimals), less fees and the account's activation.
      amountOut: { above: 29_000_000_000n, below: 30_000_000_000n },
      // The ledger settles a transfer as it accepts it.
      settle: async () => undefined,
      // The solver's latest transfer in the ledger: the only one in flight.
      chainTxHash: async () => exchange.ledger.updates(exchange.solver.address).at(-1)!.hash,
      // A transfer costs no gas; the solver pays the exchange's activation of the new account.
      solverCost: async () => ACTIVATION_FEE,
      checkFill: async ({ txHash, recipient }) => {
        expect(exchange.ledger.tx(txHash)).toMatchObject({
          user: exchange.solver.address,
          action: { type: "sendAsset", destination: recipient.toLowerCase() },
        });
      },
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
    // The solver paid the recipient and the exchange's activation of the new account, which the quote charged for.
    expect(solverBefore - exchange.ledger.perpsBalance(exchange.solver.address)).toBe(out + ACTIVATION_FEE);
    // That fee, 1 perps USDC, is the quote's rent (opening the account) in the input's USDC (6 decimals, both at $1);
    // the transfer itself costs no gas.
    expect(quote.body.feeSponsorship.quoted.components.rent.total.amount).toBe("1000000");
    expect(quote.body.fees.relayerGas.amount).toBe("0");
    // The same deposit to an account the exchange knows charges no rent.
    const again = await depositQuote(user.address, recipient, usdcOf(origin), "25000000");
    expect(again.body.feeSponsorship.quoted.components.rent.total.amount).toBe("0");
    expect(BigInt(again.body.details.currencyOut.amount)).toBeGreaterThan(out);
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

  it("credits no transfer signed for another nonce, destination or signer, or for less than the quote; refunds each through the exchange", async () => {
    const destination = evm();
    const [, alice, bob] = exchange.accounts as Signer[];
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const client = createEvmChainClient(destination);
    const perps = (user: Signer) => exchange.ledger.perpsBalance(user.address);
    const [aliceBefore, bobBefore] = [perps(alice!), perps(bob!)];
    // The depository holds other users' withdrawals too (run alone, this test would find it empty).
    exchange.ledger.fund(exchange.depository.address, { perpsUsdc: 100n * 10n ** 8n });

    const quote = await withdrawalQuote(alice!, recipient, "500000000");
    expect(quote.status).toBe(200);
    await authorize(alice!, quote.body);
    const { parameters } = quote.body.steps[1].items[0].data.action;
    const nonce = parameters.nonce as number;
    // Signed on another chain than the signatureChainId it names, or for the other network: refused by the exchange.
    const action = { type: "sendAsset", signatureChainId: "0xa4b1", ...parameters };
    const signedOn = async (chainId: number, signed: Record<string, unknown>) => {
      const { r, s, v } = parseSignature(
        await alice!.signTypedData({
          domain: { name: "HyperliquidSignTransaction", version: "1", chainId, verifyingContract: zeroAddress },
          types: SEND_ASSET_TYPES,
          primaryType: "HyperliquidTransaction:SendAsset",
          message: signed as any,
        }),
      );
      return fetch(`${exchange.url}/exchange`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action: signed, nonce, signature: { r, s, v: Number(v) } }),
      }).then((res) => res.json());
    };
    expect((await signedOn(1, action)).status).toBe("err");
    expect((await signedOn(0xa4b1, { ...action, hyperliquidChain: "Mainnet" })).status).toBe("err");
    // Another nonce (not the authorized one), another destination with the authorized nonce, another signer's
    // transfer under the authorized nonce.
    const otherNonce = await transfer(alice!, { ...parameters, nonce: nonce + 1 });
    expect(otherNonce.answer.status).toBe("ok");
    const otherSigner = await transfer(bob!, { ...parameters });
    expect(otherSigner.answer.status).toBe("ok");
    const elsewhere = await quoteAndAuthorizeElsewhere(alice!);
    expect(elsewhere.status).toBe("ok");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const status = await (await fetch(`${stack.api.url}/intents/status/v3?requestId=${quote.body.requestId}`)).json();
    expect(status.status).toBe("waiting");
    expect(await client.balanceOf(recipient, usdcOf(destination))).toBe(0n);
    // Their deposits are recorded without an order, for the unmatched refund.
    const unmatchedHashes = [otherNonce, otherSigner].map(({ hash }) => hash!);
    const { rows } = await stack.pool.query(
      "SELECT depositor, order_id FROM crossfill.deposit_facts WHERE chain_id = 1337 AND tx_hash = ANY($1) ORDER BY depositor",
      [unmatchedHashes],
    );
    expect(rows.map((row) => [row.depositor, row.order_id]).sort()).toEqual(
      [
        [alice!.address.toLowerCase(), ""],
        [bob!.address.toLowerCase(), ""],
      ].sort(),
    );

    // Less than the quote under the authorized nonce of a second request: matched, underpaid, never filled, refunded.
    const second = await withdrawalQuote(alice!, recipient, "500000000");
    await authorize(alice!, second.body);
    const secondParameters = second.body.steps[1].items[0].data.action.parameters;
    expect((await transfer(alice!, { ...secondParameters, amount: "1.0" })).answer.status).toBe("ok");
    // Attack: the depository's own transfer to alice of the same amount, which is no refund of ours, before ours.
    const stray = await signExchangeAction(
      exchange.depository,
      {
        type: "sendAsset",
        signatureChainId: "0xa4b1",
        ...secondParameters,
        destination: alice!.address.toLowerCase(),
        amount: "1.0",
        nonce: Date.now() - 2_000,
      } as any,
      SEND_ASSET_TYPES,
    );
    expect(await exchange.ledger.submit(stray as any)).toEqual({ status: "ok", response: { type: "default" } });
    const strayHash = exchange.ledger.updates(exchange.depository.address).at(-1)!.hash;
    const { last } = await pollStatus(stack.api.url, second.body.requestId, {
      until: ["refund", "success"],
      timeoutMs: 45_000,
    });
    expect(last.status).toBe("refund");
    expect(await client.balanceOf(recipient, usdcOf(destination))).toBe(0n);
    const [refund] = (
      await stack.pool.query("SELECT * FROM crossfill.refunds WHERE request_id = $1", [second.body.requestId])
    ).rows;
    // The depository's sendAsset back of the whole deposit (the exchange charges nothing to an existing account),
    // its hash the ledger's; the stray transfer confirmed nothing.
    expect(refund).toMatchObject({ status: "confirmed", amount: "100000000", recipient: alice!.address.toLowerCase() });
    expect(refund.tx_hash).not.toBe(strayHash);
    expect(exchange.ledger.tx(refund.tx_hash)).toMatchObject({
      user: exchange.depository.address,
      action: { type: "sendAsset", destination: alice!.address.toLowerCase(), amount: "1" },
    });
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "perps refund" });
    const record = await fetch(`${stack.api.url}/requests/v3?id=${second.body.requestId}`, {
      headers: { "x-api-key": key.key },
    }).then((response) => response.json());
    // The record names the ledger's transfer as the refund, and the status the same hash.
    expect(record.requests[0].protocol.settlement.destination.refunds).toEqual([
      { chainId: 1337, transactionId: refund.tx_hash },
    ]);
    expect(last.txHashes).toContain(refund.tx_hash);
    expect(
      (
        await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.withdrawal_facts WHERE tx_hash = $1", [
          strayHash,
        ])
      ).rows[0].n,
    ).toBe(0);

    // The unmapped transfers, after the (shortened) hour: each paid back to its signer through the exchange, whole.
    const refunded = await waitForUnmatchedRefunds(unmatchedHashes);
    expect(refunded.map((row) => [row.recipient, row.amount, row.fee]).sort()).toEqual(
      [
        [alice!.address.toLowerCase(), "500000000", "0"],
        [bob!.address.toLowerCase(), "500000000", "0"],
      ].sort(),
    );
    for (const row of refunded)
      expect(exchange.ledger.tx(row.tx_hash)).toMatchObject({
        user: exchange.depository.address,
        action: { type: "sendAsset", destination: row.recipient, amount: "5" },
      });
    // To the unit: alice lost only what she sent bob; bob gained it; the stray transfer is alice's too.
    expect(perps(alice!)).toBe(aliceBefore - 500_000_000n + 100_000_000n);
    expect(perps(bob!)).toBe(bobBefore + 500_000_000n);

    async function waitForUnmatchedRefunds(hashes: string[]) {
      for (const deadline = Date.now() + 45_000; ;) {
        const { rows: found } = await stack.pool.query(
          "SELECT * FROM crossfill.unmatched_refunds WHERE chain_id = 1337 AND deposit_tx_hash = ANY($1)",
          [hashes],
        );
        if (found.length === hashes.length && found.every((row) => row.status === "confirmed")) return found;
        if (Date.now() > deadline) throw new Error(`unmatched refunds not confirmed: ${JSON.stringify(found)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

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

  it("charges a refund to an exchange account never seen its activation fee: a fresh refundTo drains nothing", async () => {
    const user = exchange.accounts[3]!;
    const refundTo = privateKeyToAccount(generatePrivateKey()).address;
    // Attack: an underpaid withdrawal refunded to a new account, whose activation the depository would pay.
    const quote = await withdrawalQuote(user, stack.devnet.accounts[4]!.address, "500000000", { refundTo });
    expect(quote.status).toBe(200);
    await authorize(user, quote.body);
    const { parameters } = quote.body.steps[1].items[0].data.action;
    const depositoryBefore = exchange.ledger.perpsBalance(exchange.depository.address);
    expect((await transfer(user, { ...parameters, amount: "2.0" })).answer.status).toBe("ok");
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, {
      until: ["refund", "success"],
      timeoutMs: 45_000,
    });
    expect(last.status).toBe("refund");
    const [refund] = (
      await stack.pool.query("SELECT * FROM crossfill.refunds WHERE request_id = $1", [quote.body.requestId])
    ).rows;
    // The refundee gets the deposit less the 1 USDC activation; the depository pays out exactly what came in.
    expect(refund).toMatchObject({ status: "confirmed", amount: "100000000", recipient: refundTo.toLowerCase() });
    expect(exchange.ledger.perpsBalance(refundTo)).toBe(100_000_000n);
    expect(exchange.ledger.perpsBalance(exchange.depository.address)).toBe(depositoryBefore);
  });
});
