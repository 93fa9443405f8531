import type pg from "pg";

/**
 * Serialises the signing of one request's fill across replicas until the caller's transaction ends: whoever holds it
 * sees any fill another run stored first, and signs none then. (The nonce or wallet lock serialises a chain's fills.)
 */
export async function lockFillSigning(db: pg.PoolClient, requestId: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [requestId]);
}
