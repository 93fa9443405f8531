import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAggregatorArtifact } from "../contracts/artifacts.js";
import { devnetAccounts } from "../devnet/devnetAccounts.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import {
  type HermesControlPath,
  type HermesControlPayload,
  devnetHermesControl,
} from "./support/devnetHermesControl.js";
import { ethToUsdcQuoteBody } from "./support/ethToUsdcQuoteBody.js";
import { postGraphql } from "./support/postGraphql.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

// The devnet as npm start composes its prices: Hermes first, the EVM devnet's aggregators (fed from Hermes' book every
// 3 s) second, every feed named by the chains file. 8 s of age, so a frozen feed goes stale within a test.
describe("live prices on the devnet stack: Hermes, then the chain's aggregators, through the gateway", () => {
  let stack: TestStack;
  let body: Record<string, unknown>;
  beforeAll(async () => {
    stack = await startTestStack({ pipeline: false, livePrices: { maxAgeSeconds: 8, refreshMs: 200 } });
    body = ethToUsdcQuoteBody(stack.devnet);
  }, 120_000);
  afterAll(() => stack?.stop());

  const post = async (path: string) => {
    const response = await fetch(`${stack.api.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const hermes = (path: HermesControlPath, payload: HermesControlPayload) =>
    devnetHermesControl(stack.hermes!.hermesUrl, path, payload);
  const quoteUntil = async (done: (quote: { status: number; body: any }) => boolean, withinMs: number) => {
    const started = Date.now();
    for (;;) {
      const quote = await post("/quote/v2");
      if (done(quote) || Date.now() - started > withinMs) return { quote, ms: Date.now() - started };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const requestCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n as number;
  const storedPrices = async (requestId: string) =>
    (await stack.pool.query("SELECT quote->'prices' AS prices FROM crossfill.requests WHERE id = $1", [requestId]))
      .rows[0].prices;
  /** ETH's aggregator on the first chain, as the chains file the service reads names it. */
  const ethAggregator = () => stack.devnet.chains[0].prices.ETH!.aggregator as Address;
  /** A round the price service's account posts itself: the chain's aggregator fresh while Hermes is frozen. */
  const postRound = async (usd: bigint, attempts = 3): Promise<void> => {
    const owner = devnetWalletClient({
      rpcUrl: stack.devnet.chains[0].rpcUrl,
      chainId: stack.devnet.chains[0].id,
      privateKey: devnetAccounts().priceService.privateKey,
    });
    try {
      const hash = await owner.writeContract({
        address: ethAggregator(),
        abi: devnetAggregatorArtifact.abi,
        functionName: "postRound",
        args: [usd * 10n ** 8n, BigInt(Math.floor(Date.now() / 1000))],
      });
      await owner.waitForTransactionReceipt({ hash });
    } catch (error) {
      // The devnet's poster sends from the same account: a nonce taken under us is taken again.
      if (attempts <= 1) throw error;
      await postRound(usd, attempts - 1);
    }
  };

  it("the EVM devnet deploys an aggregator per Hermes feed on its first chain, and names them in its prices", () => {
    const [first, second] = stack.devnet.chains;
    expect(Object.keys(first.prices).sort()).toEqual(["BTC", "ETH", "HYPE", "SOL", "TON", "USDC"]);
    for (const feed of Object.values(first.prices)) expect(feed.aggregator).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(second.prices).toEqual({});
  });

  it("a quote's rate follows a price change within the source's period, priced by Hermes", async () => {
    await hermes("/devnet/price", { symbol: "ETH", usd: 3000 });
    await hermes("/devnet/price", { symbol: "USDC", usd: 1 });
    // The aggregators follow within a poster's period; until then a far one would make ETH suspect.
    const first = await quoteUntil((quote) => quote.body.details?.currencyIn.amountUsd === "300", 10_000);
    expect(first.quote.status, JSON.stringify(first.quote.body)).toBe(200);
    // 0.5 % up: within the deviation guard's 1 %, so Hermes' answer is quoted before the next round.
    await hermes("/devnet/price", { symbol: "ETH", usd: 3015 });
    const moved = await quoteUntil((quote) => quote.body.details?.currencyIn.amountUsd === "301.5", 3_000);
    expect(moved.quote.body.details.currencyIn.amountUsd).toBe("301.5");
    expect(moved.ms).toBeLessThan(2_000);
    expect(Number(moved.quote.body.details.currencyOut.amount)).toBeGreaterThan(
      Number(first.quote.body.details.currencyOut.amount),
    );
    expect(await storedPrices(moved.quote.body.requestId)).toMatchObject({ in: { usd: "3015", source: "pyth" } });
  });

  it("attack: Hermes frozen, the aggregator answers; both stale, 503 everywhere and nothing stored; then recovery", async () => {
    await hermes("/devnet/freeze", { symbol: "ETH", frozen: true });
    // Hermes' ETH ages out while the chain's aggregator gets rounds (posted here): ETH is priced by the aggregator.
    const started = Date.now();
    let source: string | undefined;
    while (source !== "aggregator" && Date.now() - started < 15_000) {
      await postRound(3015n);
      const quote = await post("/quote/v2");
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      expect(quote.body.details.currencyIn.amountUsd).toBe("301.5");
      source = (await storedPrices(quote.body.requestId)).in.source;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(source).toBe("aggregator");

    // No more rounds: the frozen feed posts none, so nothing fresh prices ETH.
    const stale = await quoteUntil((quote) => quote.status === 503, 12_000);
    expect(stale.quote.body).toMatchObject({ errorCode: "PRICE_FETCH_FAILED" });
    expect(stale.quote.body.message).toMatch(/no fresh price of ETH \(pyth: stale; aggregator: stale\); retry/);
    const before = await requestCount();
    for (const path of ["/quote", "/quote/v2", "/price"]) {
      const refused = await post(path);
      expect({ path, status: refused.status, errorCode: refused.body.errorCode }).toEqual({
        path,
        status: 503,
        errorCode: "PRICE_FETCH_FAILED",
      });
    }
    const graphql = await postGraphql(
      stack.api.url,
      "mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId } }",
      { input: body },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("PRICE_FETCH_FAILED");
    expect(await requestCount()).toBe(before);

    await hermes("/devnet/freeze", { symbol: "ETH", frozen: false });
    const recovered = await quoteUntil((quote) => quote.status === 200, 3_000);
    expect(recovered.quote.status).toBe(200);
    expect(await storedPrices(recovered.quote.body.requestId)).toMatchObject({ in: { source: "pyth" } });
  });
});
