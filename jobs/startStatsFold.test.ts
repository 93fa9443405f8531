import pino from "pino";
import { describe, expect, it } from "vitest";
import { insertStatsRequest } from "../test/support/insertStatsRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { startStatsFold } from "./startStatsFold.js";

const PENDING = `SELECT (SELECT count(*) FROM crossfill.request_stats_daily_changes) + (SELECT count(*) FROM crossfill.request_fill_stats_daily_changes)
                      + (SELECT count(*) FROM crossfill.request_count_changes) AS n`;

describe("startStatsFold", () => {
  const database = useMigratedDatabase();

  it("folds the changes of request writes into the rollups on its tick, and stops on close", async () => {
    const fold = startStatsFold({ pool: database.pool, logger: pino({ level: "silent" }), everyMs: 20 });
    try {
      const request = {
        origin: 1,
        destination: 10,
        symbol: "USDC",
        createdAt: "2026-05-01T10:00:00Z",
        status: "success",
        amountUsd: "3",
        fillSeconds: 4,
      };
      for (let i = 0; i < 5; i++) await insertStatsRequest(database.pool, request);
      await expect.poll(async () => Number((await database.pool.query(PENDING)).rows[0].n), { timeout: 5_000 }).toBe(0);
      const { rows } = await database.pool.query("SELECT n::int, volume::text FROM crossfill.request_stats_daily");
      expect(rows).toEqual([{ n: 5, volume: "15" }]);
      const counts = await database.pool.query("SELECT n::int FROM crossfill.request_counts_by_chain");
      expect(counts.rows).toEqual([{ n: 5 }]);
    } finally {
      await fold.close();
    }
    await insertStatsRequest(database.pool, {
      origin: 1,
      destination: 10,
      symbol: "ETH",
      createdAt: "2026-05-01T10:00:00Z",
      status: "success",
      amountUsd: "1",
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(Number((await database.pool.query(PENDING)).rows[0].n)).toBeGreaterThan(0);
  });
});
