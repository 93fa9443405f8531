import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { migrate } from "../../schema/migrate.js";
import { createTestDatabase } from "./testDatabase.js";

/**
 * A fresh, migrated database for the calling test file or describe block: created before its tests and dropped
 * after them (after the block's own afterAll hooks, which run first).
 */
export function useMigratedDatabase(options: { max?: number; before?: number } = {}): { readonly pool: pg.Pool } {
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: options.max ?? 3 });
    // `before`: migrated short of a version, for that migration's own test.
    await migrate(pool, { before: options.before });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });
  return {
    get pool() {
      if (!pool) throw new Error("the test database is ready only inside tests and hooks");
      return pool;
    },
  };
}
