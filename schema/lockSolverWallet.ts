import type { Queryable } from "./requests.js";

/**
 * Locks a chain's solver wallet (a UTXO chain: Bitcoin) until the caller's transaction ends, and returns the stored
 * fills on that chain that may still spend its outputs: the raw transactions of requests still `pending` or
 * `submitted` (signed and stored, perhaps not broadcast yet). A fill signed under the lock picks no output these
 * spend, and is stored before the lock is released, so two fills never spend the same output.
 */
export async function lockSolverWallet(db: Queryable, chainId: number): Promise<string[]> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('crossfill.solver-wallet.' || $1::text))", [chainId]);
  const { rows } = await db.query<{ raw_tx: string }>(
    `SELECT a.raw_tx FROM crossfill.fill_attempts a JOIN crossfill.requests r ON r.id = a.request_id
      WHERE a.chain_id = $1 AND r.status IN ('pending', 'submitted')`,
    [chainId],
  );
  return rows.map((row) => row.raw_tx);
}
