import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { findUnappliedDeposits, findUnappliedFills } from "./unappliedFacts.js";
import { seedBenchChainFacts } from "./seedBenchChainFacts.js";
import { seedBenchRequests } from "./seedBenchRequests.js";
import { truncateBenchRequests } from "./truncateBenchRequests.js";

describe("seedBenchChainFacts", () => {
  const database = useMigratedDatabase({ max: 3 });
  const count = async (table: string) =>
    Number((await database.pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count);

  it("gives every seeded deposit and fill its indexer row, all applied, and seeds again after a truncate", async () => {
    for (const requests of [200, 300]) {
      await truncateBenchRequests(database.pool);
      await seedBenchRequests(database.pool, { integrators: 3, chainIds: [1, 10], wallets: 50, requests });
      await seedBenchChainFacts(database.pool, "onchain_bench");
      expect(await count("onchain_bench.deposit")).toBe(await count("crossfill.request_deposits"));
      expect(await count("onchain_bench.fill")).toBe(await count("crossfill.request_fills"));
      expect(await count("onchain_bench.fill")).toBeGreaterThan(requests / 2);
      expect(await findUnappliedDeposits(database.pool, "onchain_bench")).toEqual([]);
      expect(await findUnappliedFills(database.pool, "onchain_bench")).toEqual([]);
    }
  });
});
