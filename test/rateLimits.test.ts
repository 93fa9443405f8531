import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { DEFAULT_ROUTE_LIMITS } from "../src/gateway/http/routeLimits.js";
import { postGraphql } from "./support/postGraphql.js";
import { route } from "./support/route.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

// Every call falls in one rate window: the clock stands still.
const NOW = new Date(Date.parse("2026-11-27T10:00:00Z") + 200);

/**
 * The routes issue 22 found unlimited, with the documented limits (docs/API.md, Rate limits): one address past
 * its limit gets 429 RATE_LIMITED with Retry-After and nothing is written; a key is counted apart from the address.
 */
describe("rate limits of quotes, status, transaction indexing and app fees", () => {
  let stack: RestAppStack;
  let key: CreatedApiKey;
  let quoteBody: Record<string, unknown>;
  let address = 0;
  // Each test its own client address (X-Forwarded-For behind a trusted proxy), so no test spends another's budget.
  const nextAddress = () => `198.51.100.${++address}`;
  beforeAll(async () => {
    stack = await startRestApp({ routeLimits: DEFAULT_ROUTE_LIMITS, now: () => NOW, trustForwardedFor: true });
    key = await createApiKey(stack.pool, stack.serverKey, { name: "acme", integrator: "acme" });
    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[0].address;
    quoteBody = { user, ...route(origin, destination), amount: "100000000000000000", tradeType: "EXACT_INPUT" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = async (method: string, path: string, from: string, options: { body?: unknown; key?: string } = {}) => {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      headers: {
        "x-forwarded-for": from,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.key ? { "x-api-key": options.key } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const counts = async () =>
    (
      await stack.pool.query<{ requests: number; events: number; facts: number; claims: number }>(
        `SELECT (SELECT count(*)::int FROM crossfill.requests) AS requests,
                (SELECT count(*)::int FROM crossfill.status_events) AS events,
                (SELECT count(*)::int FROM crossfill.deposit_facts) AS facts,
                (SELECT count(*)::int FROM crossfill.app_fee_claims) AS claims`,
      )
    ).rows[0];
  const expectRefused = (answer: Awaited<ReturnType<typeof call>>, limit: number) => {
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({
      message: expect.stringContaining(`${limit} requests per 1 s`),
      errorCode: "RATE_LIMITED",
    });
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answer.headers.get("ratelimit-policy")).toBe(`${limit};w=1`);
  };

  it("POST /quote and /quote/v2 share one budget per address; past it 429 and no request, event or delivery is written", async () => {
    const from = nextAddress();
    const limit = DEFAULT_ROUTE_LIMITS.quote.anonymous;
    for (let i = 0; i < limit; i++) {
      const answer = await call("POST", i % 2 ? "/quote" : "/quote/v2", from, { body: quoteBody });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit")).toBe(`limit=${limit}, remaining=${limit - i - 1}, reset=1`);
    }
    const before = await counts();
    expectRefused(await call("POST", "/quote/v2", from, { body: quoteBody }), limit);
    expectRefused(await call("POST", "/quote", from, { body: quoteBody }), limit);
    // Refused before the body is read: a bad body is refused the same way, not answered 400.
    expectRefused(await call("POST", "/quote", from, { body: { user: "nonsense" } }), limit);
    expect(await counts()).toEqual(before);
  });

  it("a key's quotes are counted apart from its address's keyless budget, at the key tier", async () => {
    const from = nextAddress();
    const anonymous = DEFAULT_ROUTE_LIMITS.quote.anonymous;
    for (let i = 0; i < anonymous; i++)
      expect((await call("POST", "/quote", from, { body: quoteBody })).status).toBe(200);
    expectRefused(await call("POST", "/quote", from, { body: quoteBody }), anonymous);
    // The address is spent; the key, from the same address, is not.
    const standard = DEFAULT_ROUTE_LIMITS.quote.standard;
    for (let i = 0; i < standard; i++) {
      const answer = await call("POST", "/quote/v2", from, { body: quoteBody, key: key.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit-policy")).toBe(`${standard};w=1`);
    }
    const before = await counts();
    // Another address does not refresh the key's budget.
    expectRefused(await call("POST", "/quote/v2", nextAddress(), { body: quoteBody, key: key.key }), standard);
    // Nor does GraphQL: a keyed createQuote spends the same budget.
    const graphql = await postGraphql(
      stack.url,
      "mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId } }",
      { input: quoteBody },
      key.key,
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    expect(await counts()).toEqual(before);
  });

  it("POST /price past its address limit gets 429", async () => {
    const from = nextAddress();
    const limit = DEFAULT_ROUTE_LIMITS.price.anonymous;
    for (let i = 0; i < limit; i++) expect((await call("POST", "/price", from, { body: quoteBody })).status).toBe(200);
    expectRefused(await call("POST", "/price", from, { body: quoteBody }), limit);
  });

  it("GET /intents/status/v3 and /intents/status share one budget per address", async () => {
    const from = nextAddress();
    const limit = DEFAULT_ROUTE_LIMITS.status.anonymous;
    const path = (n: number) => `/intents/status${n % 2 ? "" : "/v3"}?requestId=0x${n.toString(16).padStart(64, "0")}`;
    for (let i = 0; i < limit; i++) expect((await call("GET", path(i), from)).status).toBe(404);
    expectRefused(await call("GET", path(limit), from), limit);
    expect((await call("GET", path(limit), from, { key: key.key })).status).toBe(404);
  });

  it("POST /transactions/index past its address limit gets 429 and records nothing", async () => {
    const from = nextAddress();
    const limit = DEFAULT_ROUTE_LIMITS.transactionsIndex.anonymous;
    const body = { chainId: stack.devnet.chains[0].id, txHash: `0x${"ab".repeat(32)}` };
    for (let i = 0; i < limit; i++)
      expect((await call("POST", "/transactions/index", from, { body })).status).not.toBe(429);
    const before = await counts();
    expectRefused(await call("POST", "/transactions/index", from, { body }), limit);
    expect(await counts()).toEqual(before);
  });

  it("every /app-fees/* route spends one budget per address; past it 429 and no claim is written", async () => {
    const from = nextAddress();
    const limit = DEFAULT_ROUTE_LIMITS.appFees.anonymous;
    const wallet = stack.devnet.accounts[1].address;
    for (let i = 0; i < limit; i++) {
      const path = i % 2 ? `/app-fees/${wallet}/claims` : `/app-fees/${wallet}/balances`;
      expect((await call("GET", path, from)).status).toBe(200);
    }
    const before = await counts();
    expectRefused(await call("GET", `/app-fees/${wallet}/balances`, from), limit);
    const claim = { chainId: stack.devnet.chains[0].id, currency: zeroAddress };
    expectRefused(await call("POST", `/app-fees/${wallet}/claim`, from, { body: claim }), limit);
    expect(await counts()).toEqual(before);
  });
});
