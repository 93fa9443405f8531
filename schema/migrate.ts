import { readFileSync, readdirSync } from "node:fs";
import type pg from "pg";

export const APP_SCHEMA = "crossfill";
const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);
// Any constant works; it keeps two processes starting at once from applying the same migration.
const MIGRATION_LOCK = 7_240_001;

export type Migration = { version: number; name: string; sql: string };

export function listMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d{4}_.+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(new URL(file, MIGRATIONS_DIR), "utf8"),
    }));
}

/**
 * Applies every migration not yet applied, each in its own transaction; returns the names applied. `before` stops
 * short of a version (a migration's test applies those before it, writes rows in the old shape, then the rest).
 */
export async function migrate(pool: pg.Pool, options: { before?: number } = {}): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${APP_SCHEMA}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${APP_SCHEMA}.schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${APP_SCHEMA}.schema_migrations`);
    const done = new Set(rows.map((row) => row.version));
    for (const migration of listMigrations()) {
      if (done.has(migration.version)) continue;
      if (options.before !== undefined && migration.version >= options.before) break;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${APP_SCHEMA}.schema_migrations (version, name) VALUES ($1, $2)`, [
          migration.version,
          migration.name,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.version}_${migration.name} failed`, { cause: error });
      }
      applied.push(`${migration.version}_${migration.name}`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return applied;
}
