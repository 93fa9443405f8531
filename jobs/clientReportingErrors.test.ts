import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { clientReportingErrors } from "./clientReportingErrors.js";

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function terminate(pid: number) {
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query("SELECT pg_terminate_backend($1)", [pid]);
  await admin.end();
}

it("reports the error of a checked-out client that Postgres ends between two statements", async () => {
  const errors: string[] = [];
  const pool = new pg.Pool({
    connectionString: db.url,
    Client: clientReportingErrors((error) => errors.push(error.message)),
  });
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  await terminate(rows[0].pid);
  await vi.waitFor(() => expect(errors.join("\n")).toMatch(/terminat/));
  client.release(true);
  await pool.end();
});

it("leaves an idle client's error to the pool", async () => {
  const clientErrors: string[] = [];
  const poolErrors: string[] = [];
  const pool = new pg.Pool({
    connectionString: db.url,
    Client: clientReportingErrors((error) => clientErrors.push(error.message)),
  });
  pool.on("error", (error) => poolErrors.push(error.message));
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  client.release();
  await terminate(rows[0].pid);
  await vi.waitFor(() => expect(poolErrors.join("\n")).toMatch(/terminat/));
  expect(clientErrors).toEqual([]);
  await pool.end();
});
