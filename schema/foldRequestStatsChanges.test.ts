import { describe, expect, it } from "vitest";
import { insertStatsRequest } from "../test/support/insertStatsRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { foldRequestStatsChanges } from "./foldRequestStatsChanges.js";

const PENDING = `SELECT (SELECT count(*) FROM crossfill.request_stats_daily_changes) AS totals,
                        (SELECT count(*) FROM crossfill.request_fill_stats_daily_changes) AS fills`;

describe("foldRequestStatsChanges", () => {
  const database = useMigratedDatabase({ max: 2 });
  const pending = async () => {
    const { rows } = await database.pool.query(PENDING);
    return { totals: Number(rows[0].totals), fills: Number(rows[0].fills) };
  };

  it("leaves request changes to the tick (none is folded on the write path), then moves them all and reports how many", async () => {
    const base = {
      origin: 1,
      destination: 10,
      symbol: "USDC",
      createdAt: "2026-05-01T10:00:00Z",
      status: "success",
      amountUsd: "2",
    };
    // 200 requests: with a fold in one change of 64 on the write path, some would have been folded.
    for (let i = 0; i < 200; i++)
      await insertStatsRequest(database.pool, { ...base, fillSeconds: i % 2 === 0 ? 3 : undefined });
    const before = await pending();
    // Every insert and update of a request appends; none of them folded.
    expect(before.totals).toBeGreaterThanOrEqual(200);
    expect(before.fills).toBeGreaterThanOrEqual(100);
    expect(await foldRequestStatsChanges(database.pool)).toBe(before.totals + before.fills);
    expect(await pending()).toEqual({ totals: 0, fills: 0 });
    const { rows } = await database.pool.query(
      "SELECT sum(n)::int AS n, sum(volume)::text AS volume FROM crossfill.request_stats_daily",
    );
    expect(rows[0]).toEqual({ n: 200, volume: "400" });
    expect(await foldRequestStatsChanges(database.pool)).toBe(0);
  });

  it("skips, without waiting, while another fold holds the lock, and request changes do not wait for a fold", async () => {
    const request = {
      origin: 1,
      destination: 10,
      symbol: "ETH",
      createdAt: "2026-05-02T10:00:00Z",
      status: "pending",
      amountUsd: "5",
    };
    await insertStatsRequest(database.pool, request);
    const client = await database.pool.connect();
    try {
      await client.query("BEGIN");
      expect(await foldRequestStatsChanges(client)).toBeGreaterThan(0);
      expect(await foldRequestStatsChanges(database.pool)).toBeNull();
      await insertStatsRequest(database.pool, request); // the same group's rollup row is locked by the open fold
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    expect((await pending()).totals).toBeGreaterThan(0);
    expect(await foldRequestStatsChanges(database.pool)).toBeGreaterThan(0);
    const { rows } = await database.pool.query(
      "SELECT n::int, volume::text FROM crossfill.request_stats_daily WHERE currency_in_symbol = 'ETH'",
    );
    expect(rows).toEqual([{ n: 2, volume: "10" }]);
  });
});
