import { beforeAll, describe, expect, it } from "vitest";
import { emptyFilter } from "./requestFilter.js";
import { insertStatsRequest } from "../test/support/insertStatsRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { type FieldCondition, type RequestFilter } from "./requestFilter.js";
import { type RequestStatsBucket, type RequestStatsGroup, requestStats, rollupDays } from "./requestStats.js";

const DAY1 = "2026-01-01T00:00:00.000Z";
const DAY2 = "2026-01-02T00:00:00.000Z";
const WINDOW = { from: new Date(DAY1), to: new Date("2026-01-03T00:00:00Z") };

describe("requestStats (SQL)", () => {
  const database = useMigratedDatabase({ max: 2 });

  beforeAll(async () => {
    const usdc = { origin: 1, destination: 10, symbol: "USDC" };
    const eth = { origin: 10, destination: 1, symbol: "ETH" };
    // Day 1, 10:xx UTC, chain 1 → 10
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2026-01-01T10:00:00Z",
      status: "success",
      amountUsd: "100.10",
      relayerFeeUsd: "0.5",
      appFeeUsd: "0.1",
      fillSeconds: 4,
    });
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2026-01-01T10:05:00Z",
      status: "success",
      amountUsd: "200.20",
      relayerFeeUsd: "1.25",
      fillSeconds: 10,
    });
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2026-01-01T10:10:00Z",
      status: "failure",
      failReason: "SLIPPAGE",
      amountUsd: "50",
      relayerFeeUsd: "0.3",
    });
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2026-01-01T10:15:00Z",
      status: "waiting",
      amountUsd: "10",
    });
    // Day 1, 10:30 UTC, chain 10 → 1
    await insertStatsRequest(database.pool, {
      ...eth,
      createdAt: "2026-01-01T10:30:00Z",
      status: "refund",
      failReason: "ORDER_EXPIRED",
      amountUsd: "1000.000001",
    });
    await insertStatsRequest(database.pool, {
      ...eth,
      createdAt: "2026-01-01T10:31:00Z",
      status: "success",
      amountUsd: "0.333333",
      relayerFeeUsd: "0.01",
      fillSeconds: 20,
    });
    // Day 2
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2026-01-02T05:00:00Z",
      status: "success",
      amountUsd: "5",
      relayerFeeUsd: "0.02",
      appFeeUsd: "0.003",
      fillSeconds: 7,
    });
    // Outside the half-open window: one at `to` exactly, one just before `from`.
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2026-01-03T00:00:00Z",
      status: "success",
      amountUsd: "999",
      fillSeconds: 99,
    });
    await insertStatsRequest(database.pool, {
      ...usdc,
      createdAt: "2025-12-31T23:59:59Z",
      status: "success",
      amountUsd: "999",
      fillSeconds: 99,
    });
  });

  const stats = (groupBy: RequestStatsGroup[], filter = emptyFilter()) =>
    requestStats(database.pool, { filter, ...WINDOW, groupBy });

  it("without groups: one bucket over the window, exact sums, 6-decimal success rate and interpolated percentiles", async () => {
    expect(await stats([])).toEqual([
      {
        originChainId: null,
        destinationChainId: null,
        status: null,
        currencyInSymbol: null,
        failReason: null,
        day: null,
        hour: null,
        count: 7,
        volumeUsd: "1365.633334",
        filledVolumeUsd: "305.633333",
        successes: 4,
        finished: 6,
        successRate: "0.666667",
        // fill seconds 4, 7, 10, 20: median between 7 and 10; p95 at position 2.85 → 10 + 0.85 × 10
        fillSecondsP50: 8.5,
        fillSecondsP95: 18.5,
        // relayer + app of the successes (gas is the user's, not a fee): 0.6 + 1.25 + 0.01 + 0.023
        feesUsd: "1.883",
      },
    ]);
  });

  it("by origin chain and day: one bucket per pair, in key order", async () => {
    const buckets = await stats(["ORIGIN_CHAIN", "DAY"]);
    expect(
      buckets.map((b) => [
        b.originChainId,
        b.day?.toISOString(),
        b.count,
        b.volumeUsd,
        b.successRate,
        b.fillSecondsP50,
        b.fillSecondsP95,
        b.feesUsd,
      ]),
    ).toEqual([
      [1, DAY1, 4, "360.30", "0.666667", 7, 9.7, "1.85"],
      [1, DAY2, 1, "5", "1.000000", 7, 7, "0.023"],
      [10, DAY1, 2, "1000.333334", "0.500000", 20, 20, "0.01"],
    ]);
    expect(buckets.every((b) => b.destinationChainId === null && b.status === null && b.hour === null)).toBe(true);
  });

  it("by status, fail reason, currency, destination chain and hour", async () => {
    const byStatus = await stats(["STATUS"]);
    expect(byStatus.map((b) => [b.status, b.count, b.successRate, b.fillSecondsP50])).toEqual([
      ["failure", 1, "0.000000", null],
      ["refund", 1, "0.000000", null],
      ["success", 4, "1.000000", 8.5],
      ["waiting", 1, null, null],
    ]);
    expect((await stats(["FAIL_REASON"])).map((b) => [b.failReason, b.count])).toEqual([
      ["ORDER_EXPIRED", 1],
      ["SLIPPAGE", 1],
      [null, 5],
    ]);
    expect((await stats(["CURRENCY_IN"])).map((b) => [b.currencyInSymbol, b.count, b.volumeUsd])).toEqual([
      ["ETH", 2, "1000.333334"],
      ["USDC", 5, "365.30"],
    ]);
    expect((await stats(["DESTINATION_CHAIN"])).map((b) => [b.destinationChainId, b.count])).toEqual([
      [1, 2],
      [10, 5],
    ]);
    expect((await stats(["HOUR"])).map((b) => [b.hour?.toISOString(), b.count])).toEqual([
      ["2026-01-01T10:00:00.000Z", 6],
      ["2026-01-02T05:00:00.000Z", 1],
    ]);
  });

  it("applies the listing filter (AND, not, anyOf) inside the window", async () => {
    const success = {
      ...emptyFilter(),
      conditions: [{ field: "status" as const, negate: false, values: ["success"] }],
    };
    expect((await stats(["ORIGIN_CHAIN"], success)).map((b) => [b.originChainId, b.count, b.feesUsd])).toEqual([
      [1, 3, "1.873"],
      [10, 1, "0.01"],
    ]);
    const notUsdc = {
      ...emptyFilter(),
      conditions: [{ field: "currencyInSymbol" as const, negate: true, values: ["USDC"] }],
    };
    expect((await stats([], notUsdc))[0].count).toBe(2);
    const either = {
      ...emptyFilter(),
      groups: [
        [{ field: "failReason" as const, negate: false, values: ["SLIPPAGE"] }],
        [{ field: "originChainId" as const, negate: false, values: [10] }],
      ],
    };
    expect((await stats([], either))[0].count).toBe(3);
  });

  it("reads percentiles off the fill-time histogram exactly as percentile_cont does over the raw rows", async () => {
    // Another month, so the buckets above stay as they are: uneven groups, repeated and odd fill times.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 60; i++) {
      const origin = [1, 10, 8453][next() % 3];
      const filled = next() % 5 !== 0;
      await insertStatsRequest(database.pool, {
        origin,
        destination: 42161,
        symbol: "USDC",
        createdAt: `2026-02-${String(1 + (next() % 3)).padStart(2, "0")}T12:00:00Z`,
        status: filled ? "success" : "pending",
        amountUsd: "1",
        fillSeconds: filled ? next() % 97 : undefined,
      });
    }
    const window = { from: new Date("2026-02-01T00:00:00Z"), to: new Date("2026-03-01T00:00:00Z") };
    const buckets = await requestStats(database.pool, {
      filter: emptyFilter(),
      ...window,
      groupBy: ["ORIGIN_CHAIN", "DAY"],
    });
    const { rows } = await database.pool.query(
      `SELECT origin_chain_id::int AS chain, date_trunc('day', created_at, 'UTC') AS day,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY fill_seconds)::numeric, 3)::float8 AS p50,
              round(percentile_cont(0.95) WITHIN GROUP (ORDER BY fill_seconds)::numeric, 3)::float8 AS p95
         FROM crossfill.requests WHERE created_at >= $1 AND created_at < $2 GROUP BY 1, 2 ORDER BY 1, 2`,
      [window.from, window.to],
    );
    expect(rows.length).toBeGreaterThan(5);
    expect(buckets.map((b) => [b.originChainId, b.day, b.fillSecondsP50, b.fillSecondsP95])).toEqual(
      rows.map((row) => [row.chain, row.day, row.p50, row.p95]),
    );
  });

  it("time buckets of a window cut mid-day and mid-hour hold exactly its rows, as grouping each row by its UTC day and hour does", async () => {
    // March, so the buckets above stay as they are; rows on and around the window's and the buckets' edges.
    const rows: Array<[string, number, string, string, number | undefined]> = [
      ["2026-03-01T23:29:59.999Z", 1, "success", "7", 3],
      ["2026-03-01T23:30:00.000Z", 1, "success", "1.5", 4],
      ["2026-03-01T23:59:59.999Z", 10, "failure", "2.25", undefined],
      ["2026-03-02T00:00:00.000Z", 1, "success", "3", 9],
      ["2026-03-02T00:00:00.000Z", 1, "success", "0.000001", 9],
      ["2026-03-02T10:59:59.999Z", 10, "success", "4", 1],
      ["2026-03-02T11:00:00.000Z", 1, "pending", "5", undefined],
      ["2026-03-02T11:29:59.999Z", 10, "success", "6.10", 30],
      ["2026-03-02T11:30:00.000Z", 1, "success", "8", 2],
    ];
    for (const [createdAt, origin, status, amountUsd, fillSeconds] of rows) {
      await insertStatsRequest(database.pool, {
        origin,
        destination: 42161,
        symbol: "ETH",
        createdAt,
        status,
        amountUsd,
        fillSeconds,
      });
    }
    const window = { from: new Date("2026-03-01T23:30:00Z"), to: new Date("2026-03-02T11:30:00Z") };
    const reference: Record<RequestStatsGroup, string> = {
      ORIGIN_CHAIN: "origin_chain_id::int",
      DESTINATION_CHAIN: "destination_chain_id::int",
      STATUS: "status",
      CURRENCY_IN: "currency_in_symbol",
      FAIL_REASON: "fail_reason",
      DAY: "date_trunc('day', created_at, 'UTC')",
      HOUR: "date_trunc('hour', created_at, 'UTC')",
    };
    const groupings: RequestStatsGroup[][] = [
      ["DAY"],
      ["HOUR"],
      ["DAY", "HOUR"],
      ["HOUR", "ORIGIN_CHAIN"],
      ["ORIGIN_CHAIN", "DAY", "STATUS"],
    ];
    for (const groupBy of groupings) {
      const buckets = await requestStats(database.pool, { filter: emptyFilter(), ...window, groupBy });
      const keys = groupBy.map((group, index) => `${reference[group]} AS k${index}`).join(", ");
      const { rows: expected } = await database.pool.query(
        `SELECT ${keys}, count(*)::int AS count, sum(amount_usd)::text AS volume, count(*) FILTER (WHERE status = 'success')::int AS successes,
                round(percentile_cont(0.5) WITHIN GROUP (ORDER BY fill_seconds)::numeric, 3)::float8 AS p50,
                round(percentile_cont(0.95) WITHIN GROUP (ORDER BY fill_seconds)::numeric, 3)::float8 AS p95
           FROM crossfill.requests WHERE created_at >= $1 AND created_at < $2
          GROUP BY ${groupBy.map((_, index) => index + 1).join(", ")} ORDER BY ${groupBy.map((_, index) => index + 1).join(", ")}`,
        [window.from, window.to],
      );
      const field: Record<RequestStatsGroup, (b: RequestStatsBucket) => unknown> = {
        ORIGIN_CHAIN: (b) => b.originChainId,
        DESTINATION_CHAIN: (b) => b.destinationChainId,
        STATUS: (b) => b.status,
        CURRENCY_IN: (b) => b.currencyInSymbol,
        FAIL_REASON: (b) => b.failReason,
        DAY: (b) => b.day?.toISOString(),
        HOUR: (b) => b.hour?.toISOString(),
      };
      expect(
        buckets.map((b) => [
          ...groupBy.map((group) => field[group](b)),
          b.count,
          b.volumeUsd,
          b.successes,
          b.fillSecondsP50,
          b.fillSecondsP95,
        ]),
        groupBy.join(" × "),
      ).toEqual(
        expected.map((row) => [
          ...groupBy.map((_, index) =>
            row[`k${index}`] instanceof Date ? row[`k${index}`].toISOString() : row[`k${index}`],
          ),
          row.count,
          row.volume,
          row.successes,
          row.p50,
          row.p95,
        ]),
      );
    }
    const [day] = await requestStats(database.pool, { filter: emptyFilter(), ...window, groupBy: ["DAY"] });
    // 23:29:59.999 is before the window: the first day holds 2 of its 3 rows.
    expect([day.day?.toISOString(), day.count, day.volumeUsd]).toEqual(["2026-03-01T00:00:00.000Z", 2, "3.75"]);
  });

  it("answers one zero bucket without groups and no bucket with groups when nothing matches", async () => {
    const none = { ...emptyFilter(), conditions: [{ field: "originChainId" as const, negate: false, values: [5] }] };
    expect(await stats([], none)).toMatchObject([
      { count: 0, volumeUsd: "0", successRate: null, fillSecondsP50: null, feesUsd: "0" },
    ]);
    expect(await stats(["DAY"], none)).toEqual([]);
  });
  it("answers from the daily rollups exactly as from the raw rows: every grouping, rollup filters, windows cut mid-day, and the raw path for the rest", async () => {
    // April, so the buckets above stay as they are: ~200 requests over six days, every status, sums of mixed scales.
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const statuses = [
      "waiting",
      "depositing",
      "pending",
      "submitted",
      "success",
      "success",
      "success",
      "failure",
      "refund",
    ];
    const failReasons = ["SLIPPAGE", "ORDER_EXPIRED", "DOUBLE_SPEND"];
    await database.pool.query(
      "INSERT INTO crossfill.api_keys (id, name, integrator, elevated, key_hash, webhook_secret_cipher) VALUES ('key_rollup', 'rollup', 'rollup', false, '\\x01', '\\x00')",
    );
    for (let i = 0; i < 200; i++) {
      const status = statuses[next() % statuses.length];
      const minute = next() % (6 * 24 * 60);
      await insertStatsRequest(database.pool, {
        origin: [1, 10, 8453][next() % 3],
        destination: [42161, 1][next() % 2],
        symbol: ["ETH", "USDC", "WETH"][next() % 3],
        createdAt: new Date(Date.UTC(2026, 3, 1) + minute * 60_000 + (next() % 60_000)).toISOString(),
        status,
        failReason:
          status === "failure" || status === "refund"
            ? next() % 4 === 0
              ? undefined
              : failReasons[next() % 3]
            : undefined,
        amountUsd: [
          `${next() % 1000}`,
          `${next() % 1000}.${next() % 100}`,
          `${next() % 10}.${String(next() % 1000000).padStart(6, "0")}`,
          "5.0",
        ][next() % 4],
        relayerFeeUsd: next() % 3 === 0 ? "0" : `0.${next() % 1000}`,
        appFeeUsd: next() % 5 === 0 ? "0.001" : undefined,
        fillSeconds: status === "success" || (status === "submitted" && next() % 2 === 0) ? next() % 60 : undefined,
        apiKeyId: next() % 3 === 0 ? "key_rollup" : undefined,
      });
    }
    const condition = (
      field: FieldCondition["field"],
      values: FieldCondition["values"],
      negate = false,
    ): FieldCondition => ({ field, negate, values });
    const filter = (part: Partial<RequestFilter>): RequestFilter => ({ ...emptyFilter(), ...part });
    const rollupFilters: RequestFilter[] = [
      emptyFilter(),
      filter({ conditions: [condition("status", ["success", "failure"])] }),
      filter({ conditions: [condition("currencyInSymbol", ["USDC"], true), condition("chainId", [1])] }),
      filter({ conditions: [condition("failReason", null)] }),
      filter({ conditions: [condition("failReason", null, true), condition("destinationChainId", [42161])] }),
      filter({ conditions: [condition("failReason", ["SLIPPAGE"], true)] }),
      filter({
        groups: [
          [condition("failReason", ["SLIPPAGE"])],
          [condition("originChainId", [10]), condition("status", ["success"])],
        ],
      }),
      filter({ conditions: [condition("currencyInChainId", [8453]), condition("currencyOutChainId", [1], true)] }),
    ];
    const rawFilters: RequestFilter[] = [
      filter({ conditions: [condition("apiKey", ["key_rollup"])] }),
      filter({ groups: [[condition("status", ["success"])], [condition("apiKey", ["key_rollup"])]] }),
      filter({ amountUsd: { min: "5" } }),
      filter({ fillTimeSeconds: { max: 30 } }),
      filter({ conditions: [condition("currencyOutSymbol", ["ETH"])] }),
    ];
    const groupings: RequestStatsGroup[][] = [
      [],
      ["DAY"],
      ["ORIGIN_CHAIN"],
      ["DESTINATION_CHAIN"],
      ["STATUS"],
      ["CURRENCY_IN"],
      ["FAIL_REASON"],
      ["ORIGIN_CHAIN", "DAY"],
      ["DAY", "DESTINATION_CHAIN", "STATUS"],
      ["CURRENCY_IN", "FAIL_REASON"],
      ["ORIGIN_CHAIN", "DESTINATION_CHAIN", "STATUS", "CURRENCY_IN", "FAIL_REASON", "DAY"],
      ["HOUR"],
      ["ORIGIN_CHAIN", "HOUR", "DAY"],
    ];
    const windows = [
      { from: new Date("2026-04-01T00:00:00Z"), to: new Date("2026-04-07T00:00:00Z") }, // whole days only
      { from: new Date("2026-04-01T13:37:12.345Z"), to: new Date("2026-04-05T06:00:00.001Z") }, // cut mid-day at both edges
      { from: new Date("2026-04-02T00:00:00Z"), to: new Date("2026-04-04T23:59:59.999Z") }, // cut at the end only
      { from: new Date("2026-04-03T05:00:00Z"), to: new Date("2026-04-03T20:00:00Z") }, // no whole day: the raw rows
    ];
    let fromRollup = 0;
    for (const window of windows) {
      for (const groupBy of groupings) {
        for (const f of [...rollupFilters, ...rawFilters]) {
          const query = { filter: f, ...window, groupBy };
          const usesRollup = rollupDays(query) !== undefined;
          const expectedToUse = rollupFilters.includes(f) && !groupBy.includes("HOUR") && window !== windows[3];
          expect(usesRollup, JSON.stringify(query)).toBe(expectedToUse);
          if (usesRollup) fromRollup++;
          expect(await requestStats(database.pool, query), JSON.stringify(query)).toEqual(
            await requestStats(database.pool, query, "raw"),
          );
        }
      }
    }
    expect(fromRollup).toBe(3 * 11 * rollupFilters.length);
    // The comparison is not vacuous: the rollup answers buckets with counts, sums of mixed scales and percentiles.
    const [all] = await requestStats(database.pool, { filter: emptyFilter(), ...windows[1], groupBy: [] });
    expect(all.count).toBeGreaterThan(100);
    expect(all.fillSecondsP95).not.toBeNull();
  });
});
