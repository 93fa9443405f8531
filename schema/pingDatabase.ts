import type { Queryable } from "./queryable.js";

/** One round trip to the database: readiness asks whether Postgres answers, not what it holds. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query("SELECT 1");
}
