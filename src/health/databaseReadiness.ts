import { pingDatabase } from "../../schema/pingDatabase.js";
import type { Queryable } from "../../schema/queryable.js";
import type { ReadinessCheck } from "./readinessProbe.js";

/** Postgres answers a query (through the role's own pool, so a pool that cannot connect shows here). */
export function databaseReadiness(db: Queryable): ReadinessCheck {
  return { name: "postgres", check: () => pingDatabase(db) };
}
