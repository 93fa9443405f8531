import type pg from "pg";

/**
 * Locks the solver's nonce row for the rest of the transaction and returns the next nonce: the larger of
 * what we last used and what the chain reports pending (so transactions sent outside Crossfill are respected).
 */
export async function lockNextNonce(
  client: pg.PoolClient,
  chainId: number,
  solver: string,
  chainPending: number,
): Promise<number> {
  await client.query(
    `INSERT INTO crossfill.solver_nonces (chain_id, solver, next_nonce) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [chainId, solver.toLowerCase(), chainPending],
  );
  const { rows } = await client.query<{ next_nonce: string }>(
    "SELECT next_nonce FROM crossfill.solver_nonces WHERE chain_id = $1 AND solver = $2 FOR UPDATE",
    [chainId, solver.toLowerCase()],
  );
  return Math.max(Number(rows[0].next_nonce), chainPending);
}

export async function saveNextNonce(
  client: pg.PoolClient,
  chainId: number,
  solver: string,
  nextNonce: number,
): Promise<void> {
  await client.query(
    "UPDATE crossfill.solver_nonces SET next_nonce = $3, updated_at = now() WHERE chain_id = $1 AND solver = $2",
    [chainId, solver.toLowerCase(), nextNonce],
  );
}
