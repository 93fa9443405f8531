import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { seedBenchRequests } from "./seedBenchRequests.js";
import { truncateBenchRequests } from "./truncateBenchRequests.js";

describe("truncateBenchRequests", () => {
  const database = useMigratedDatabase({ max: 3 });
  const count = async (table: string) =>
    Number((await database.pool.query(`SELECT count(*) FROM crossfill.${table}`)).rows[0].count);
  // The listing counts (migration 0150), rebuilt by the seed since its inserts run without triggers.
  const counted = async (table: string) =>
    Number((await database.pool.query(`SELECT coalesce(sum(n), 0) AS n FROM crossfill.${table}`)).rows[0].n);

  it("empties what seedBenchRequests wrote, so another size seeds into the same database", async () => {
    const seed = { integrators: 3, chainIds: [1, 10], wallets: 50 };
    await seedBenchRequests(database.pool, { ...seed, requests: 200 });
    expect(await count("requests")).toBe(200);
    expect(await count("request_deposits")).toBeGreaterThan(0);
    expect([await counted("request_counts_by_chain"), await counted("request_counts_by_key_monthly")]).toEqual([
      200, 200,
    ]);
    await truncateBenchRequests(database.pool);
    for (const table of [
      "requests",
      "request_deposits",
      "request_fills",
      "api_keys",
      "request_stats_daily",
      "request_counts_by_chain",
      "request_counts_by_key",
      "request_counts_by_key_monthly",
      "request_count_changes",
    ])
      expect(await count(table), table).toBe(0);
    await seedBenchRequests(database.pool, { ...seed, requests: 300 });
    expect(await count("requests")).toBe(300);
    expect(await count("api_keys")).toBe(3);
    expect([await counted("request_counts_by_chain"), await counted("request_counts_by_key")]).toEqual([300, 300]);
  });
});
