import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server tests create their databases on: CI and developers point DATABASE_URL at a real Postgres. */
export const adminDatabaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh, empty database for one test file; `drop` removes it (and ends its connections). */
export async function createTestDatabase(prefix = "crossfill_test"): Promise<{ url: string; name: string; drop(): Promise<void> }> {
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
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
