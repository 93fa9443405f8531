import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../../schema/migrate.js";
import { fetchGraphql } from "../../../../test/support/fetchGraphql.js";
import { createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { insertStatsRequest } from "../../../../test/support/insertStatsRequest.js";
import { createTestDatabase } from "../../../../test/support/testDatabase.js";
import { createApiKey } from "../../../apiKeys/createApiKey.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";
import type { createGraphqlServer } from "../createGraphqlServer.js";

const STATS = `query ($filter: RequestFilterInput, $from: DateTime!, $to: DateTime!, $groupBy: [RequestStatsGroup!]) {
  requestStats(filter: $filter, from: $from, to: $to, groupBy: $groupBy) {
    originChainId destinationChainId status currencyInSymbol failReason day hour
    count volumeUsd filledVolumeUsd successes finished successRate fillSecondsP50 fillSecondsP95 feesUsd } }`;
const WINDOW = { from: "2026-03-01T00:00:00Z", to: "2026-03-08T00:00:00Z" };

describe("requestStats (GraphQL)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const bus = createStatusBus();
  let server: ReturnType<typeof createGraphqlServer>;
  let acme: Awaited<ReturnType<typeof createApiKey>>;
  let other: Awaited<ReturnType<typeof createApiKey>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    server = createTestGraphqlServer({ db: pool, statusUpdates: createStatusFanout(bus) });
    const serverKey = randomBytes(32);
    acme = await createApiKey(pool, serverKey, { name: "acme" });
    other = await createApiKey(pool, serverKey, { name: "other" });
    const base = { origin: 31338, destination: 31339, symbol: "USDC" };
    await insertStatsRequest(pool, {
      ...base,
      apiKeyId: acme.id,
      createdAt: "2026-03-02T08:00:00Z",
      status: "success",
      amountUsd: "12.5",
      relayerFeeUsd: "0.25",
      fillSeconds: 6,
    });
    await insertStatsRequest(pool, {
      ...base,
      apiKeyId: acme.id,
      createdAt: "2026-03-02T09:00:00Z",
      status: "failure",
      failReason: "SLIPPAGE",
      amountUsd: "7.5",
    });
    await insertStatsRequest(pool, {
      ...base,
      apiKeyId: acme.id,
      createdAt: "2026-03-03T09:00:00Z",
      status: "success",
      amountUsd: "0.1",
      appFeeUsd: "0.01",
      fillSeconds: 12,
    });
    await insertStatsRequest(pool, {
      ...base,
      apiKeyId: other.id,
      createdAt: "2026-03-03T10:00:00Z",
      status: "success",
      amountUsd: "1000",
      relayerFeeUsd: "3",
      fillSeconds: 30,
    });
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
    await pool?.end();
    await db?.drop();
  });

  const gql = (variables: Record<string, unknown>, apiKey?: string, query = STATS): Promise<any> =>
    fetchGraphql(server, query, variables, apiKey);

  it("answers typed buckets grouped by day and status, with decimal strings for money and rates", async () => {
    const body = await gql({ ...WINDOW, groupBy: ["DAY", "STATUS"] }, acme.key);
    expect(body.errors).toBeUndefined();
    expect(body.data.requestStats).toEqual([
      {
        originChainId: null,
        destinationChainId: null,
        status: "failure",
        currencyInSymbol: null,
        failReason: null,
        day: "2026-03-02T00:00:00.000Z",
        hour: null,
        count: 1,
        volumeUsd: "7.5",
        filledVolumeUsd: "0",
        successes: 0,
        finished: 1,
        successRate: "0.000000",
        fillSecondsP50: null,
        fillSecondsP95: null,
        feesUsd: "0",
      },
      {
        originChainId: null,
        destinationChainId: null,
        status: "success",
        currencyInSymbol: null,
        failReason: null,
        day: "2026-03-02T00:00:00.000Z",
        hour: null,
        count: 1,
        volumeUsd: "12.5",
        filledVolumeUsd: "12.5",
        successes: 1,
        finished: 1,
        successRate: "1.000000",
        fillSecondsP50: 6,
        fillSecondsP95: 6,
        feesUsd: "0.25",
      },
      {
        originChainId: null,
        destinationChainId: null,
        status: "success",
        currencyInSymbol: null,
        failReason: null,
        day: "2026-03-03T00:00:00.000Z",
        hour: null,
        count: 2,
        volumeUsd: "1000.1",
        filledVolumeUsd: "1000.1",
        successes: 2,
        finished: 2,
        successRate: "1.000000",
        fillSecondsP50: 21,
        fillSecondsP95: 29.1,
        feesUsd: "3.01",
      },
    ]);
  });

  it("is scoped like the requests connection: a key is required, and apiKey filters must name the caller's own keys", async () => {
    const anonymous = await gql({ ...WINDOW });
    expect(anonymous.errors[0].extensions.code).toBe("UNAUTHORIZED");
    expect(anonymous.data).toBeNull();
    const foreign = await gql({ ...WINDOW, filter: { apiKey: [other.id] } }, acme.key);
    expect(foreign.errors[0].extensions.code).toBe("FORBIDDEN");
    const own = await gql({ ...WINDOW, filter: { apiKey: [acme.id] }, groupBy: ["FAIL_REASON"] }, acme.key);
    expect(own.data.requestStats.map((b: any) => [b.failReason, b.count, b.volumeUsd, b.successRate])).toEqual([
      ["SLIPPAGE", 1, "7.5", "0.000000"],
      [null, 2, "12.6", "1.000000"],
    ]);
    // The key itself works as the filter value too, as on REST.
    const byKey = await gql({ ...WINDOW, filter: { apiKey: [acme.key] } }, acme.key);
    expect(byKey.data.requestStats[0]).toMatchObject({
      count: 3,
      successes: 2,
      finished: 3,
      successRate: "0.666667",
      fillSecondsP50: 9,
    });
  });

  it("refuses bad windows, repeated or unknown groups and bad filter values with INVALID_INPUT-style codes, never an internal error", async () => {
    const code = async (variables: Record<string, unknown>, query?: string) => {
      const body = await gql(variables, acme.key, query);
      expect(body.errors, JSON.stringify(body)).toHaveLength(1);
      return [body.errors[0].extensions.code, body.errors[0].message];
    };
    expect(await code({ from: WINDOW.to, to: WINDOW.from })).toEqual(["INVALID_INPUT", "to must be after from"]);
    expect(await code({ from: WINDOW.from, to: WINDOW.from })).toEqual(["INVALID_INPUT", "to must be after from"]);
    expect(await code({ from: "2025-01-01T00:00:00Z", to: "2026-01-02T00:00:01Z" })).toEqual([
      "INVALID_INPUT",
      "from/to: at most 366 days",
    ]);
    expect(await code({ from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z", groupBy: ["HOUR"] })).toEqual([
      "INVALID_INPUT",
      "groupBy HOUR: at most 31 days",
    ]);
    expect(await code({ ...WINDOW, groupBy: ["DAY", "DAY"] })).toEqual([
      "INVALID_INPUT",
      "groupBy: each group at most once",
    ]);
    expect((await code({ ...WINDOW, filter: { user: ["not an address"] } }))[0]).toBe("INVALID_INPUT");
    expect((await code({ ...WINDOW, groupBy: ["WALLET"] }))[0]).toBe("INVALID_INPUT");
    expect((await code({ ...WINDOW, from: "yesterday" }))[0]).toBe("INVALID_INPUT");
    // Dates Postgres cannot hold were an internal error
    expect(await code({ from: "-005000-01-01T00:00:00Z", to: WINDOW.to })).toEqual([
      "INVALID_INPUT",
      expect.stringMatching(/DateTime must be within the years 0001 to 9999/),
    ]);
    expect((await code({ from: WINDOW.from, to: "+200000-01-02T00:00:00Z" }))[0]).toBe("INVALID_INPUT");
    // one aggregation per operation, however aliased
    const twice = `query ($from: DateTime!, $to: DateTime!) { a: requestStats(from: $from, to: $to) { count } b: requestStats(from: $from, to: $to) { count } }`;
    expect(await code(WINDOW, twice)).toEqual(["INVALID_INPUT", "at most 1 requestStats per operation"]);
    expect(
      (
        await code(
          {},
          `{ requestStats(from: "2026-03-01T00:00:00Z", to: "2026-03-02T00:00:00Z", groupBy: [WALLET]) { count } }`,
        )
      )[0],
    ).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("accepts a full 366-day window", async () => {
    const body = await gql(
      { from: "2025-03-08T00:00:00Z", to: "2026-03-09T00:00:00Z", groupBy: ["ORIGIN_CHAIN"] },
      acme.key,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.requestStats).toMatchObject([{ originChainId: 31338, count: 4, volumeUsd: "1020.1" }]);
  });
});
