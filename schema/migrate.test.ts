import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteCompression } from "../test/support/quoteCompression.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { listMigrations, migrate } from "./migrate.js";

describe("migrate", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it("applies every migration once, even when two runners start together", async () => {
    const [first, second] = await Promise.all([migrate(pool), migrate(pool)]);
    expect([...first, ...second]).toHaveLength(listMigrations().length);
    expect(await migrate(pool)).toEqual([]);
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM crossfill.schema_migrations");
    expect(rows[0].n).toBe(listMigrations().length);
  });

  it("creates the request tables with their constraints", async () => {
    await expect(
      pool.query(
        `INSERT INTO crossfill.requests (id, order_id, status, request_type, trade_type, user_address, recipient,
           origin_chain_id, destination_chain_id, origin_currency, destination_currency, amount_in, amount_out,
           minimum_amount_out, slippage_bps, deadline, order_data, quote)
         VALUES ('r', 'o', 'bogus', 'Bridge', 'EXACT_INPUT', 'u', 'u', 1, 2, 'c', 'c', 1, 1, 1, 0, now(), '{}', '{}')`,
      ),
    ).rejects.toThrow(/check constraint/);
  });

  it("compresses stored quotes with lz4 where the server has it (see startEmbeddedPostgres.test for one without)", async () => {
    const { actual, expected } = await quoteCompression(db.url);
    expect(actual).toBe(expected);
  });
});
