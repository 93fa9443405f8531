import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { findUnappliedDeposits, findUnappliedFills } from "./unappliedFacts.js";
import { onchainStandInSql } from "./onchainStandInSql.js";
import { findIndexedRefunds } from "./refunds.js";

describe("onchainStandInSql", () => {
  const database = useMigratedDatabase({ max: 2 });

  it("creates, in the schema it is given, the three views every chain-fact reader reads", async () => {
    await database.pool.query(onchainStandInSql("stand_in_a"));
    await database.pool.query(onchainStandInSql("stand_in_b"));
    for (const schema of ["stand_in_a", "stand_in_b"]) {
      expect(await findUnappliedDeposits(database.pool, schema)).toEqual([]);
      expect(await findUnappliedFills(database.pool, schema)).toEqual([]);
      expect(await findIndexedRefunds(database.pool, schema)).toEqual([]);
    }
    expect(() => onchainStandInSql('x"; DROP TABLE crossfill.requests; --')).toThrow(/unsafe schema name/);
  });
});
