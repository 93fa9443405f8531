import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVNET_FEED_IDS } from "../devnet/prices/devnetPriceFeeds.js";
import { type DevnetHermes, startDevnetHermes } from "../devnet/prices/startDevnetHermes.js";
import { parseConfig } from "../src/config.js";
import { createConfiguredPriceSource } from "../src/pricing/createConfiguredPriceSource.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { priceSettingsWith } from "../src/rolePrices.js";
import { ethToUsdcQuoteBody } from "./support/ethToUsdcQuoteBody.js";
import { postGraphql } from "./support/postGraphql.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

/** A price layer over a Hermes, as `crossfill api` builds it from PRICE_SOURCES=pyth; 3 s of age, 100 ms period. */
function pythLayer(hermesUrl: string, feedIds: Record<string, string>): PriceSource {
  const config = parseConfig({ PRICE_MAX_AGE_SECONDS: "3", PRICE_REFRESH_MS: "100", PRICE_TIMEOUT_MS: "500" });
  return createConfiguredPriceSource(
    priceSettingsWith(config, [{ kind: "pyth", hermesUrl, feedIds, maxConfidenceBps: 200n }]),
  );
}

describe("live prices: quotes priced from the devnet's Hermes over HTTP", () => {
  // What the gateway logs at warn and above, read back by the tests.
  const logged: Array<{ level: number; errorCode?: string; subject?: string; err?: unknown }> = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  let stack: RestAppStack;
  let hermes: DevnetHermes;
  let layer: PriceSource;
  let body: Record<string, unknown>;
  beforeAll(async () => {
    // No random walk: the test moves the prices itself and checks them to the unit.
    hermes = await startDevnetHermes({ walkBps: 0, intervalMs: 500 });
    const full = pythLayer(hermes.hermesUrl, { ...DEVNET_FEED_IDS });
    layer = full;
    // The gateway reads whichever layer the test points it at.
    const prices: PriceSource = {
      pricesOf: (currencies) => layer.pricesOf(currencies),
      usdPriceE18: (currency) => layer.usdPriceE18(currency),
    };
    stack = await startRestApp({ logger }, { prices });
    body = ethToUsdcQuoteBody(stack.devnet);
  });
  afterAll(async () => {
    await stack?.stop();
    await hermes?.stop().catch(() => undefined);
  });

  const post = async (path: string, payload: unknown = body) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const moveHermes = async (path: string, payload: unknown) => {
    const response = await fetch(`${hermes.hermesUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    expect(response.status).toBe(200);
  };
  /** The three quote routes all refuse the body the same way. */
  const expectRefusedEverywhere = async (status: number, errorCode: string, message: RegExp) => {
    for (const path of ["/quote", "/quote/v2", "/price"]) {
      const refused = await post(path);
      expect({ path, status: refused.status, errorCode: refused.body.errorCode }).toEqual({ path, status, errorCode });
      expect(refused.body.message).toMatch(message);
    }
  };
  const requestCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n as number;
  const storedPrices = async (requestId: string) =>
    (await stack.pool.query("SELECT quote->'prices' AS prices FROM crossfill.requests WHERE id = $1", [requestId]))
      .rows[0].prices;
  /** Quotes until `done` holds, at most `withinMs`; the last answer and how long it took. */
  const quoteUntil = async (done: (quote: any) => boolean, withinMs: number) => {
    const started = Date.now();
    for (;;) {
      const quote = await post("/quote/v2");
      if (done(quote) || Date.now() - started > withinMs) return { quote, ms: Date.now() - started };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("a quote's rate and amountUsd follow the feed within its period; a stored request keeps its own prices", async () => {
    await moveHermes("/devnet/price", { symbol: "ETH", usd: 3000 });
    const first = await quoteUntil((quote) => quote.body.details?.currencyIn.amountUsd === "300", 2_000);
    expect(first.quote.status).toBe(200);
    expect(first.quote.body.details.currencyIn.amountUsd).toBe("300");
    expect(Number(first.quote.body.details.rate)).toBeCloseTo(3000, -1);

    await moveHermes("/devnet/price", { symbol: "ETH", usd: 3512.5 });
    const moved = await quoteUntil((quote) => quote.body.details?.currencyIn.amountUsd === "351.25", 2_000);
    expect(moved.quote.body.details.currencyIn.amountUsd).toBe("351.25");
    // Within the layer's period (100 ms) and a round trip, not at the next restart.
    expect(moved.ms).toBeLessThan(1_000);
    expect(Number(moved.quote.body.details.rate)).toBeGreaterThan(3_400);
    expect(Number(moved.quote.body.details.currencyOut.amount)).toBeGreaterThan(
      Number(first.quote.body.details.currencyOut.amount),
    );

    expect(await storedPrices(first.quote.body.requestId)).toMatchObject({
      in: { usd: "3000", source: "pyth" },
      out: { usd: "1", source: "pyth" },
    });
    expect(await storedPrices(moved.quote.body.requestId)).toMatchObject({ in: { usd: "3512.5", source: "pyth" } });
  });

  it("a frozen feed goes stale: 503 PRICE_FETCH_FAILED, nothing stored; it quotes again once the feed moves", async () => {
    logged.length = 0;
    await moveHermes("/devnet/freeze", { symbol: "ETH", frozen: true });
    const stale = await quoteUntil((quote) => quote.status === 503, 6_000);
    expect(stale.quote.status).toBe(503);
    expect(stale.quote.body).toMatchObject({ errorCode: "PRICE_FETCH_FAILED" });
    expect(stale.quote.body.message).toMatch(/no fresh price of ETH \(pyth: stale\)/);
    const before = await requestCount();
    for (let i = 0; i < 20; i += 1) expect((await post("/quote/v2")).status).toBe(503);
    expect(await requestCount()).toBe(before);
    // An expected, retryable refusal: one warning for ETH, no stack, not an error per quote.
    expect(logged).toEqual([
      expect.objectContaining({ level: 40, errorCode: "PRICE_FETCH_FAILED", subject: "ETH", path: "/quote/v2" }),
    ]);
    expect(logged[0]!.err).toBeUndefined();

    await moveHermes("/devnet/freeze", { symbol: "ETH", frozen: false });
    const recovered = await quoteUntil((quote) => quote.status === 200, 2_000);
    expect(recovered.quote.status).toBe(200);
  });

  it("a currency no source prices is 400 UNSUPPORTED_CURRENCY, with nothing stored", async () => {
    const full = layer;
    layer = pythLayer(hermes.hermesUrl, { ETH: DEVNET_FEED_IDS.ETH });
    try {
      const before = await requestCount();
      await expectRefusedEverywhere(400, "UNSUPPORTED_CURRENCY", /no price source prices USDC/);
      expect(await requestCount()).toBe(before);
    } finally {
      layer = full;
    }
  });

  it("the price service down: 503 PRICE_FETCH_FAILED on /quote, /quote/v2, /price and GraphQL once the cache ages out", async () => {
    const up = await post("/quote/v2");
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await hermes.stop();
    const down = await quoteUntil((quote) => quote.status === 503, 6_000);
    expect(down.quote.status).toBe(503);
    const before = await requestCount();
    await expectRefusedEverywhere(
      503,
      "PRICE_FETCH_FAILED",
      /^no fresh price of (ETH|USDC) \(pyth: fetch failed\); retry$/,
    );
    const graphql = await postGraphql(
      stack.url,
      "mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId } }",
      { input: body },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("PRICE_FETCH_FAILED");
    expect(await requestCount()).toBe(before);
  });
});
