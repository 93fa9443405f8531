import { randomBytes } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onchainSchemaIdent } from "../schema/onchainSchemaIdent.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { convertAmount } from "../src/pricing/convertAmount.js";
import {
  type HermesControlPath,
  type HermesControlPayload,
  devnetHermesControl,
} from "./support/devnetHermesControl.js";
import { ethToUsdcQuoteBody } from "./support/ethToUsdcQuoteBody.js";
import { pollStatus } from "./support/pollStatus.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

// A late deposit is re-priced at the current price (jobs/repriceDeposit.ts). The whole stack on live devnet prices
// (Hermes, then the EVM devnet's aggregators, 5 s of age): with the feed frozen, no source has a fresh ETH price at
// the moment the deposit lands, so it must be neither filled at the old price nor refunded for want of one.
describe("a late deposit when no fresh price exists: retried, then re-priced at the price of its application", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ livePrices: { maxAgeSeconds: 5, refreshMs: 200 } });
  }, 120_000);
  afterAll(() => stack?.stop());

  const hermes = (path: HermesControlPath, payload: HermesControlPayload) =>
    devnetHermesControl(stack.hermes!.hermesUrl, path, payload);
  const quoteUntil = async (body: unknown, done: (status: number, body: any) => boolean, withinMs: number) => {
    const started = Date.now();
    for (;;) {
      const response = await fetch(`${stack.api.url}/quote/v2`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as any;
      if (done(response.status, answer)) return answer;
      if (Date.now() - started > withinMs)
        throw new Error(`no such quote in ${withinMs} ms: ${JSON.stringify(answer)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it("attack: frozen ETH feed → the deposit waits unapplied (no fill at the stale price, no refund); back → filled at the new price", async () => {
    const [origin, destination] = stack.devnet.chains;
    const usdc = destination.currencies.find((currency) => currency.symbol === "USDC")!;
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const body = { ...ethToUsdcQuoteBody(stack.devnet), recipient, latePaymentSlippageTolerance: "500" };
    await hermes("/devnet/price", { symbol: "ETH", usd: 3000 });
    await hermes("/devnet/price", { symbol: "USDC", usd: 1 });
    // Once the aggregators followed (a far one would make ETH suspect), the quote is priced at 3000.
    const quote = await quoteUntil(body, (status, answer) => answer.details?.currencyIn.amountUsd === "300", 15_000);
    const requestId = quote.requestId as string;
    const quotedOut = BigInt(quote.details.currencyOut.amount);
    await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 minute' WHERE id = $1", [
      requestId,
    ]);

    await hermes("/devnet/freeze", { symbol: "ETH", frozen: true });
    // Hermes' ETH and the aggregators' (no rounds for a frozen feed) age past 5 s: nothing prices ETH.
    await quoteUntil(body, (status, answer) => status === 503 && answer.errorCode === "PRICE_FETCH_FAILED", 20_000);

    const { deposit } = await sendSteps(quote, stack.devnet.accounts[0], origin);
    const indexed = async () =>
      (
        await stack.pool.query(
          `SELECT count(*)::int AS n FROM ${onchainSchemaIdent(stack.onchainSchema!)}.deposit WHERE tx_hash = $1`,
          [deposit],
        )
      ).rows[0].n as number;
    for (let waited = 0; (await indexed()) === 0; waited += 100) {
      expect(waited).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Several reconcile passes (each new block wakes one) while ETH stays stale.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const held = await stack.pool.query(
      `SELECT r.status, r.fill_amount,
              (SELECT count(*)::int FROM crossfill.request_deposits d WHERE d.request_id = r.id) AS deposits,
              (SELECT count(*)::int FROM crossfill.refunds f WHERE f.request_id = r.id) AS refunds
         FROM crossfill.requests r WHERE r.id = $1`,
      [requestId],
    );
    expect(held.rows[0]).toEqual({ status: "waiting", fill_amount: null, deposits: 0, refunds: 0 });
    const status = (await (await fetch(`${stack.api.url}/intents/status/v3?requestId=${requestId}`)).json()) as any;
    expect(status.status).toBe("waiting");

    // ETH is back 0.5 % lower: the deposit is re-priced at 2985, not at the 3000 it was quoted (and last seen) at.
    await hermes("/devnet/price", { symbol: "ETH", usd: 2985 });
    await hermes("/devnet/freeze", { symbol: "ETH", frozen: false });
    const { last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
    expect(last.status).toBe("success");
    const { rows } = await stack.pool.query(
      "SELECT fill_amount, quote->'fees' AS fees FROM crossfill.requests WHERE id = $1",
      [requestId],
    );
    const fees = rows[0].fees as Record<string, { amount?: string } | undefined>;
    const quotedFee =
      BigInt(fees.relayer?.amount ?? "0") + BigInt(fees.app?.amount ?? "0") - BigInt(fees.subsidized?.amount ?? "0");
    const expected = convertAmount(
      BigInt(quote.details.currencyIn.amount) - quotedFee,
      { decimals: 18, usdPriceE18: 2985n * 10n ** 18n },
      { decimals: usdc.decimals, usdPriceE18: 10n ** 18n },
    );
    expect(BigInt(rows[0].fill_amount)).toBe(expected);
    expect(expected).toBeLessThan(quotedOut);
    expect(await createEvmChainClient(destination).balanceOf(recipient, usdc.address as Address)).toBe(expected);
    const refunds = await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.refunds WHERE request_id = $1", [
      requestId,
    ]);
    expect(refunds.rows[0].n).toBe(0);
  }, 120_000);
});
