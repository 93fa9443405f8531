import { REORGED_OUT } from "./payoutReorgs.js";
import type { Queryable } from "./queryable.js";

/**
 * Locks a chain's solver wallet (a UTXO chain: Bitcoin) until the caller's transaction ends, and returns the stored
 * fills on that chain that may still spend its outputs — every payout not settled: the raw transactions of requests
 * still `pending` or `submitted` (signed and stored, perhaps not broadcast yet, or being cancelled: a refused payout
 * stays `submitted` until its cancellation confirms), and of successes whose payout a reorg dropped (broadcast again).
 * A fill signed under the lock picks no output these spend, and is stored before the lock is released, so two fills
 * never spend the same output.
 */
export async function lockSolverWallet(db: Queryable, chainId: number): Promise<string[]> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext('crossfill.solver-wallet.' || $1::text))", [chainId]);
  const { rows } = await db.query<{ raw_tx: string }>(
    `SELECT a.raw_tx FROM crossfill.fill_attempts a JOIN crossfill.requests r ON r.id = a.request_id
      WHERE a.chain_id = $1 AND (r.status IN ('pending', 'submitted') OR (r.status = 'success' AND ${REORGED_OUT}))`,
    [chainId],
  );
  return rows.map((row) => row.raw_tx);
}
