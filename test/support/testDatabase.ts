import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server tests create their databases on: CI and developers point DATABASE_URL at a real Postgres. */
export const adminDatabaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh, empty database for one test file; `drop` removes it (and ends its connections). */
export async function createTestDatabase(
  prefix = "crossfill_test",
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminDatabaseUrl });
      await client.connect();
      try {
        // Let connections that are closing finish first: forcing them off makes their pools emit an
        // unhandled 57P01 error in whatever test file they belong to. Forced only after a grace period.
        for (let waited = 0; waited < 3_000; waited += 50) {
          const { rows } = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
            [name],
          );
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
