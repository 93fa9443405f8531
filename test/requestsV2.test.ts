import { openapiRecordIssues } from "./support/openapiRecordIssues.js";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { DEFAULT_ROUTE_LIMITS } from "../src/gateway/http/routeLimits.js";
import { type RateLimiter, createPostgresRateLimiter } from "../src/gateway/http/rateLimiter.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

const hex32 = () => `0x${randomBytes(32).toString("hex")}`;
const DAVE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

describe("GET /requests/v2 (deprecated) and rate limits", () => {
  let stack: RestAppStack;
  let key: CreatedApiKey;
  let elevated: CreatedApiKey;
  let clock = new Date("2026-08-01T12:00:00Z");
  let failLimiter = false;
  const ids: Record<string, string> = {};
  const fillHash = hex32();

  beforeAll(async () => {
    // A limiter over Postgres that can be made to fail, to see a 5xx answer's headers.
    let inner: RateLimiter | undefined;
    const limiter: RateLimiter = {
      kind: "postgres",
      hit: (policy, now) => {
        if (failLimiter) throw new Error("counter store unavailable");
        return inner!.hit(policy, now);
      },
      close: async () => undefined,
    };
    stack = await startRestApp({
      // the 503 this file provokes on purpose would be logged as an error
      logger: pino({ level: "silent" }),
      now: () => clock,
      rateLimiter: limiter,
      routeLimits: {
        ...DEFAULT_ROUTE_LIMITS,
        requestsV2: { name: "requests-v2", windowSeconds: 1, anonymous: 20, standard: 30, elevated: 40 },
        requestsV3: { name: "requests-v3", windowSeconds: 1, anonymous: 0, standard: 2, elevated: 4 },
      },
    });
    inner = createPostgresRateLimiter(stack.pool);
    key = await createApiKey(stack.pool, stack.serverKey, { name: "v2-user", integrator: "acme" });
    elevated = await createApiKey(stack.pool, stack.serverKey, { name: "big", integrator: "acme", elevated: true });
    const plain = await insertTestRequest(stack.pool, { referrer: "pub.app", apiKeyId: key.id });
    const submitted = await insertTestRequest(stack.pool, {
      recipient: DAVE,
      orderData: { version: "v2", output: { recipient: DAVE } },
    });
    await stack.pool.query(
      "UPDATE crossfill.requests SET status = 'submitted', created_at = now() + interval '1 second' WHERE id = $1",
      [submitted.id],
    );
    await stack.pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp) VALUES (31339, $1, 0, $2, 990, 5, 100)`,
      [fillHash, submitted.id],
    );
    await stack.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES (31338, $1, 0, $2, $3, $4, 1000, 4, 90)`,
      [hex32(), submitted.id, DAVE.toLowerCase(), "0x0000000000000000000000000000000000000000"],
    );
    Object.assign(ids, { plain: plain.id, submitted: submitted.id });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  // each call moves the clock to a fresh second so limits only bite where a test means them to
  let tick = 0;
  const call = async (path: string, headers: Record<string, string> = {}, sameSecond = false) => {
    if (!sameSecond) clock = new Date(clock.getTime() + 1000 * ++tick);
    const response = await fetch(`${stack.url}${path}`, { headers });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const expectDeprecationHeaders = (headers: Headers) => {
    expect(headers.get("deprecation")).toBe("@1784678400");
    expect(headers.get("sunset")).toBe("Tue, 24 Nov 2026 00:00:00 GMT");
    expect(headers.get("link")).toMatch(/rel="deprecation".*rel="sunset".*<\/requests\/v3>; rel="successor-version"/);
    const exposed = (headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["Deprecation", "Sunset", "Link"]));
  };

  it("answers the v2 shape with the deprecation object and headers", async () => {
    const { status, headers, body } = await call("/requests/v2");
    expect(status).toBe(200);
    expectDeprecationHeaders(headers);
    expect(body.deprecation).toEqual({
      message: expect.stringContaining("/requests/v3"),
      deprecatedAt: "2026-07-22T00:00:00.000Z",
      throttledFrom: "2026-09-01T00:00:00.000Z",
      sunsetAt: "2026-11-24T00:00:00.000Z",
      successor: "/requests/v3",
      migrationGuide: expect.any(String),
    });
    expect(body.requests.map((r: { id: string }) => r.id)).toEqual([ids.submitted, ids.plain]);
    const [submitted, plain] = body.requests;
    expect(Object.keys(plain).sort()).toEqual([
      "createdAt",
      "data",
      "depositAddress",
      "id",
      "partnerId",
      "protocol",
      "recipient",
      "referrer",
      "status",
      "updatedAt",
      "user",
    ]);
    expect(plain).toMatchObject({
      status: "waiting",
      referrer: "pub.app",
      data: { failReason: "N/A", refundFailReason: "N/A", subsidizedRequest: false },
    });
    for (const field of [
      "fees",
      "feesUsd",
      "inTxs",
      "currency",
      "currencyObject",
      "feeCurrency",
      "feeCurrencyObject",
      "appFeeCurrencyObject",
      "appFees",
      "paidAppFees",
      "subsidizedFee",
      "expandedPriceImpact",
      "feeSponsorship",
      "outTxs",
      "price",
      "usesExternalLiquidity",
      "timeEstimate",
      "metadata",
    ]) {
      expect(plain.data).toHaveProperty(field);
    }
    expect(Object.keys(plain.data.fees).sort()).toEqual(["fixed", "gas", "gateway", "price"]);
    // v2 has no `submitted`; the fill appears under its old name `hash`
    expect(submitted.status).toBe("pending");
    expect(submitted.data.outTxs[0]).toMatchObject({ hash: fillHash, chainId: 31339, block: 5 });
    // the deposit paid its network fee in its chain's native currency
    expect(submitted.data.inTxs[0]).toMatchObject({
      chainId: 31338,
      feeCurrency: "eth",
      feeCurrencyObject: { chainId: 31338, symbol: "ETH", metadata: { isNative: true } },
    });
    expect(submitted.data.metadata.currencyOut.amount).toBe("990");
    expect(plain.protocol).not.toHaveProperty("orderData");
    const withOrders = (await call("/requests/v2?includeOrderData=true")).body.requests;
    expect(withOrders[1].protocol).toHaveProperty("orderData");
    // Each record, with and without its order, conforms to the v2 record schema /openapi.json publishes.
    for (const record of [...body.requests, ...withOrders])
      expect(await openapiRecordIssues(stack.url, record, "v2")).toEqual([]);
    // a submitted request shows as pending, and like any public pending one hides where its output goes
    expect(withOrders[0].protocol.orderData).toEqual({ version: "v2" });
  });

  it("filters by user (sender or recipient), hash, chain, id and limit 1–50", async () => {
    expect((await call(`/requests/v2?user=${DAVE}`)).body.requests.map((r: { id: string }) => r.id)).toEqual([
      ids.submitted,
    ]);
    expect((await call(`/requests/v2?hash=${fillHash}`)).body.requests.map((r: { id: string }) => r.id)).toEqual([
      ids.submitted,
    ]);
    expect((await call(`/requests/v2?hash=${fillHash}&user=${DAVE.toLowerCase()}`)).body.requests).toHaveLength(1);
    expect((await call(`/requests/v2?chainId=31338&destinationChainId=31338`)).body.requests).toHaveLength(0);
    expect((await call(`/requests/v2?id=${ids.plain}`)).body.requests).toHaveLength(1);
    expect((await call("/requests/v2?referrer=pub.app")).body.requests).toHaveLength(1);
    // v2's pending is v3's pending or submitted
    expect((await call("/requests/v2?status=pending")).body.requests.map((r: { id: string }) => r.id)).toEqual([
      ids.submitted,
    ]);
    const first = await call("/requests/v2?limit=1");
    expect(first.body.requests).toHaveLength(1);
    const second = await call(`/requests/v2?limit=1&continuation=${encodeURIComponent(first.body.continuation)}`);
    expect(second.body.requests.map((r: { id: string }) => r.id)).toEqual([ids.plain]);
    expect(second.body.continuation).toBeNull();
  });

  it("carries the deprecation headers on 4xx and 5xx answers too", async () => {
    for (const [path, status] of [
      ["/requests/v2?limit=0", 400],
      ["/requests/v2?limit=51", 400],
      ["/requests/v2?status=waiting", 400],
      ["/requests/v2?bogus=1", 400],
      ["/requests/v2?startTimestamp=99999999999999", 400],
      ["/requests/v2?user=0x%00", 400],
    ] as const) {
      const answer = await call(path);
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ errorCode: "INVALID_INPUT" });
      expectDeprecationHeaders(answer.headers);
    }
    const unauthorized = await call("/requests/v2", { "x-api-key": "cf_wrong" });
    expect(unauthorized.status).toBe(401);
    expectDeprecationHeaders(unauthorized.headers);
    failLimiter = true;
    try {
      const failed = await call("/requests/v2");
      expect(failed.status).toBe(503);
      expect(failed.body).toEqual({
        message: "rate limit counters are unavailable; retry shortly",
        errorCode: "SERVICE_UNAVAILABLE",
      });
      expectDeprecationHeaders(failed.headers);
    } finally {
      failLimiter = false;
    }
  });

  it("throttles by the monthly schedule from 2026-09-01 with the v2 429 body and no Retry-After", async () => {
    // August: the route's own limit (20/s anonymous) applies
    clock = new Date("2026-08-20T00:00:00Z");
    const august = [];
    for (let i = 0; i < 10; i++) august.push((await call("/requests/v2?limit=1", {}, true)).status);
    expect(august.every((status) => status === 200)).toBe(true);
    // each month keeps a smaller share of the caller's normal limit: 75 %, 50 %, 25 % of 20/s
    for (const [date, allowed] of [
      ["2026-09-10T00:00:00Z", 15],
      ["2026-10-10T00:00:00Z", 10],
      ["2026-11-10T00:00:00Z", 5],
    ] as const) {
      clock = new Date(date);
      const statuses = [];
      let last;
      for (let i = 0; i <= allowed; i++) {
        last = await call("/requests/v2?limit=1", {}, true);
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array(allowed).fill(200), 429]);
      expect(last!.body).toEqual({
        message: expect.stringContaining(`${allowed} requests per second`),
        successor: "/requests/v3",
        migrationGuide: expect.any(String),
      });
      expect(last!.headers.get("retry-after")).toBeNull();
      expectDeprecationHeaders(last!.headers);
    }
    // every tier is lowered: an elevated key keeps 25 % of its 40/s in November
    clock = new Date("2026-11-12T00:00:00Z");
    const elevatedStatuses = [];
    for (let i = 0; i <= 10; i++)
      elevatedStatuses.push((await call("/requests/v2?limit=1", { "x-api-key": elevated.key }, true)).status);
    expect(elevatedStatuses).toEqual([...Array(10).fill(200), 429]);
  });

  it("answers the older GET /requests as v2, counted with it under one limit", async () => {
    // after the throttle test's clock (the limiter's clock only moves forward): 25 % of 20/s anonymous
    clock = new Date("2026-11-20T00:00:00Z");
    const older = await call("/requests?limit=1", {}, true);
    expect(older.status).toBe(200);
    expectDeprecationHeaders(older.headers);
    const v2 = await call("/requests/v2?limit=1", {}, true);
    expect(older.body).toEqual(v2.body);
    // 5/s for both paths together: two spent above
    const statuses = [];
    for (const path of ["/requests", "/requests/v2", "/requests", "/requests"])
      statuses.push(await call(`${path}?limit=1`, {}, true));
    expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(statuses[3]!.body.message).toMatch(/^GET \/requests is deprecated and throttled to 5 requests per second/);
  });

  it("answers 410 Gone with the successor after the 2026-11-24 sunset", async () => {
    clock = new Date("2026-11-23T23:59:59Z");
    expect((await call("/requests/v2", {}, true)).status).toBe(200);
    clock = new Date("2026-11-24T00:00:00Z");
    const gone = await call("/requests/v2", {}, true);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({
      message: expect.stringContaining("retired"),
      successor: "/requests/v3",
      migrationGuide: expect.any(String),
    });
    expectDeprecationHeaders(gone.headers);
  });

  it("limits /requests/v3 per key by tier with Retry-After and RateLimit headers", async () => {
    clock = new Date("2026-12-01T00:00:00.250Z");
    const standard = [];
    for (let i = 0; i < 3; i++) standard.push(await call("/requests/v3", { "x-api-key": key.key }, true));
    expect(standard.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(standard[0].headers.get("ratelimit")).toBe("limit=2, remaining=1, reset=1");
    expect(standard[0].headers.get("ratelimit-policy")).toBe("2;w=1");
    expect(standard[2].body).toEqual({
      message: expect.stringContaining("rate limit of 2 requests per 1 s"),
      errorCode: "RATE_LIMITED",
    });
    expect(standard[2].headers.get("retry-after")).toBe("1");
    expect(standard[2].headers.get("ratelimit")).toBe("limit=2, remaining=0, reset=1");
    // another key has its own budget, and an elevated key a larger one
    const big = [];
    for (let i = 0; i < 5; i++) big.push((await call("/requests/v3", { "x-api-key": elevated.key }, true)).status);
    expect(big).toEqual([200, 200, 200, 200, 429]);
    // the next second starts a new window
    clock = new Date("2026-12-01T00:00:01.000Z");
    expect((await call("/requests/v3", { "x-api-key": key.key }, true)).status).toBe(200);
  });
});
