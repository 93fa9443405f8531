import { randomBytes } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKeysCommand } from "../apps/runKeysCommand.js";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { divCeil, parseDecimal } from "../src/domain/money.js";
import { convertAmount } from "../src/pricing/convertAmount.js";
import {
  type HermesControlPath,
  type HermesControlPayload,
  devnetHermesControl,
} from "./support/devnetHermesControl.js";
import { ethToUsdcQuoteBody } from "./support/ethToUsdcQuoteBody.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const BPS = 25n;

// Fixed-bps oracle pricing on the whole stack with live devnet prices (Hermes, then the EVM devnet's aggregators):
// the operator sets a key's bps (crossfill keys oracle-pricing), its quotes are the oracle rate less them.
describe("fixed-bps oracle pricing: an operator-set key quoted at the oracle rate less its bps", () => {
  let stack: TestStack;
  let oracleKey: CreatedApiKey;
  let normalKey: CreatedApiKey;
  let body: Record<string, unknown>;
  beforeAll(async () => {
    stack = await startTestStack({ livePrices: { maxAgeSeconds: 5, refreshMs: 200 } });
    body = ethToUsdcQuoteBody(stack.devnet);
    oracleKey = await createApiKey(stack.pool, stack.serverKey, { name: "oracle-partner" });
    normalKey = await createApiKey(stack.pool, stack.serverKey, { name: "normal-partner" });
    expect(await runKeysCommand(stack.pool, stack.serverKey, ["oracle-pricing", oracleKey.id, String(BPS)])).toMatch(
      /oracle rate less 25 bps/,
    );
  }, 120_000);
  afterAll(() => stack?.stop());

  const hermes = (path: HermesControlPath, payload: HermesControlPayload) =>
    devnetHermesControl(stack.hermes!.hermesUrl, path, payload);
  const post = async (path: string, quoteBody: unknown, key?: CreatedApiKey) => {
    const response = await fetch(`${stack.api.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { "x-api-key": key.key } : {}) },
      body: JSON.stringify(quoteBody),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const quoteUntil = async (
    quoteBody: unknown,
    key: CreatedApiKey | undefined,
    done: (quote: { status: number; body: any }) => boolean,
    withinMs: number,
  ) => {
    const started = Date.now();
    for (;;) {
      const quote = await post("/quote/v2", quoteBody, key);
      if (done(quote)) return quote;
      if (Date.now() - started > withinMs)
        throw new Error(`no such quote in ${withinMs} ms: ${JSON.stringify(quote.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  /** The USD prices (1e18) a stored request was quoted at, as its sources observed them. */
  const quotedPrices = async (requestId: string) => {
    const { rows } = await stack.pool.query("SELECT quote->'prices' AS prices FROM crossfill.requests WHERE id = $1", [
      requestId,
    ]);
    const { in: priceIn, out: priceOut } = rows[0].prices;
    return { in: parseDecimal(priceIn.usd, 18), out: parseDecimal(priceOut.usd, 18), observedAt: priceIn.observedAt };
  };
  const usdcDecimals = () => stack.devnet.chains[1].currencies.find((currency) => currency.symbol === "USDC")!.decimals;
  /** ETH → USDC at these prices less the bps, rounded down once: the best an oracle quote may give. */
  const oracleLessBps = (amountIn: bigint, prices: { in: bigint; out: bigint }) =>
    convertAmount(
      amountIn * (10_000n - BPS),
      { decimals: 18, usdPriceE18: prices.in },
      { decimals: usdcDecimals(), usdPriceE18: prices.out },
    ) / 10_000n;

  it("attack: the oracle key's quotes (exact input, exact output, GraphQL) never beat the oracle rate less its bps; a normal key's are normal", async () => {
    await hermes("/devnet/price", { symbol: "ETH", usd: 3000 });
    await hermes("/devnet/price", { symbol: "USDC", usd: 1 });
    const exactIn = await quoteUntil(body, oracleKey, (q) => q.body.details?.currencyIn.amountUsd === "300", 15_000);
    const amountIn = BigInt(exactIn.body.details.currencyIn.amount);
    const prices = await quotedPrices(exactIn.body.requestId);
    const fee = divCeil(amountIn * BPS, 10_000n);
    const expectedOut = convertAmount(
      amountIn - fee,
      { decimals: 18, usdPriceE18: prices.in },
      { decimals: usdcDecimals(), usdPriceE18: prices.out },
    );
    expect(BigInt(exactIn.body.details.currencyOut.amount)).toBe(expectedOut);
    expect(expectedOut).toBeLessThanOrEqual(oracleLessBps(amountIn, prices));
    // The bps carry the fill's gas: gas and service fee add up to them.
    const fees = exactIn.body.fees;
    expect(BigInt(fees.relayer.amount)).toBe(fee);
    expect(BigInt(fees.relayerGas.amount)).toBeGreaterThan(0n);
    expect(BigInt(fees.relayerGas.amount) + BigInt(fees.relayerService.amount)).toBe(fee);

    const exactOut = await post("/quote/v2", { ...body, tradeType: "EXACT_OUTPUT", amount: "250000000" }, oracleKey);
    expect(exactOut.status, JSON.stringify(exactOut.body)).toBe(200);
    const outPrices = await quotedPrices(exactOut.body.requestId);
    const paid = BigInt(exactOut.body.details.currencyIn.amount);
    expect(oracleLessBps(paid, outPrices)).toBeGreaterThanOrEqual(250_000_000n);

    const graphql = await postGraphql(
      stack.api.url,
      "mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId details { currencyOut { amount } } } }",
      { input: body },
      oracleKey.key,
    );
    const graphqlPrices = await quotedPrices(graphql.data.createQuote.requestId);
    expect(BigInt(graphql.data.createQuote.details.currencyOut.amount)).toBeLessThanOrEqual(
      oracleLessBps(amountIn, graphqlPrices),
    );

    // The normal key pays the service fee and the gas beside it; its quote has no oracle price.
    const normal = await post("/quote/v2", body, normalKey);
    expect(normal.status).toBe(200);
    expect(BigInt(normal.body.fees.relayer.amount)).not.toBe(fee);
    expect(BigInt(normal.body.fees.relayerService.amount)).toBe(divCeil(amountIn * 5n, 10_000n));

    const record = async (requestId: string, key: CreatedApiKey) => {
      const response = await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, {
        headers: { "x-api-key": key.key },
      });
      return ((await response.json()) as any).requests[0];
    };
    const oracleRecord = await record(exactIn.body.requestId, oracleKey);
    expect(oracleRecord.data.quoteOraclePrice).toEqual({
      rate: "3000",
      observedAt: prices.observedAt,
      inputCurrency: expect.objectContaining({ symbol: "ETH", chainId: stack.devnet.chains[0].id }),
      outputCurrency: expect.objectContaining({ symbol: "USDC", chainId: stack.devnet.chains[1].id }),
    });
    expect((await record(normal.body.requestId, normalKey)).data.quoteOraclePrice).toBeNull();
    const viaGraphql = await postGraphql(
      stack.api.url,
      `query ($id: String!) { request(id: $id) { quoteOraclePrice { rate observedAt inputCurrency { symbol } outputCurrency { symbol } } } }`,
      { id: exactIn.body.requestId },
    );
    expect(viaGraphql.data.request.quoteOraclePrice).toEqual({
      rate: "3000",
      observedAt: prices.observedAt,
      inputCurrency: { symbol: "ETH" },
      outputCurrency: { symbol: "USDC" },
    });
  });

  it("attack: with ETH's feed frozen the oracle key's quote is refused 503 PRICE_FETCH_FAILED, nothing stored; then recovery", async () => {
    await hermes("/devnet/freeze", { symbol: "ETH", frozen: true });
    const stale = await quoteUntil(body, oracleKey, (q) => q.status === 503, 20_000);
    expect(stale.body).toMatchObject({ errorCode: "PRICE_FETCH_FAILED" });
    const count = async () =>
      (
        await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests WHERE api_key_id = $1", [
          oracleKey.id,
        ])
      ).rows[0].n as number;
    const before = await count();
    for (const path of ["/quote", "/quote/v2", "/price"]) {
      const refused = await post(path, body, oracleKey);
      expect({ path, status: refused.status, errorCode: refused.body.errorCode }).toEqual({
        path,
        status: 503,
        errorCode: "PRICE_FETCH_FAILED",
      });
    }
    expect(await count()).toBe(before);
    await hermes("/devnet/freeze", { symbol: "ETH", frozen: false });
    await quoteUntil(body, oracleKey, (q) => q.status === 200, 5_000);
  });

  it("attack: a late deposit of an oracle quote is re-priced at today's lower price (less the same bps), not the quoted one", async () => {
    const [origin, destination] = stack.devnet.chains;
    const usdc = destination.currencies.find((currency) => currency.symbol === "USDC")!;
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const late = { ...body, recipient, latePaymentSlippageTolerance: "500" };
    await hermes("/devnet/price", { symbol: "ETH", usd: 3000 });
    const quote = (await quoteUntil(late, oracleKey, (q) => q.body.details?.currencyIn.amountUsd === "300", 15_000))
      .body;
    const quotedOut = BigInt(quote.details.currencyOut.amount);
    await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 minute' WHERE id = $1", [
      quote.requestId,
    ]);
    // 0.5 % lower (inside the deviation guard): once quotes see it, the deposit is re-priced at it.
    await hermes("/devnet/price", { symbol: "ETH", usd: 2985 });
    await quoteUntil(body, oracleKey, (q) => q.body.details?.currencyIn.amountUsd === "298.5", 15_000);
    await sendSteps(quote, stack.devnet.accounts[0], origin);
    const { last } = await pollStatus(stack.api.url, quote.requestId, { timeoutMs: 30_000 });
    expect(last.status).toBe("success");
    const amountIn = BigInt(quote.details.currencyIn.amount);
    const expected = convertAmount(
      amountIn - divCeil(amountIn * BPS, 10_000n),
      { decimals: 18, usdPriceE18: 2985n * 10n ** 18n },
      { decimals: usdc.decimals, usdPriceE18: 10n ** 18n },
    );
    const { rows } = await stack.pool.query("SELECT fill_amount FROM crossfill.requests WHERE id = $1", [
      quote.requestId,
    ]);
    expect(BigInt(rows[0].fill_amount)).toBe(expected);
    expect(expected).toBeLessThan(quotedOut);
    expect(await createEvmChainClient(destination).balanceOf(recipient, usdc.address as Address)).toBe(expected);
  }, 120_000);
});
