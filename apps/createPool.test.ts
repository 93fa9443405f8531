import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { createPool } from "./createPool.js";

describe("createPool", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it("reports, and survives, the server ending a checked-out and an idle connection", async () => {
    const errors: string[] = [];
    const pool = createPool(db.url, (error) => errors.push((error as Error & { code?: string }).code ?? error.message));
    const held = await pool.connect();
    const idle = await pool.connect();
    idle.release();
    const { rows } = await pool.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    await pool.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [rows.map((row) => row.pid)]);
    // Each client reports its end: the termination notice (57P01), or the socket closing under it.
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(2));
    expect(errors).toContain("57P01");
    await expect(held.query("SELECT 1")).rejects.toThrow();
    held.release(true);
    expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one).toBe(1);
    await pool.end();
  });
});
