import type { Queryable } from "./queryable.js";

export type ChainHead = { chainId: number; blockNumber: bigint; movedAt: Date; observedAt: Date };

/** Records the head an indexer sees; `moved_at` changes only when the block number does. */
export async function recordChainHead(db: Queryable, chainId: number, blockNumber: bigint): Promise<void> {
  await db.query(
    `INSERT INTO crossfill.chain_heads AS h (chain_id, block_number, moved_at, observed_at)
     VALUES ($1, $2, now(), now())
     ON CONFLICT (chain_id) DO UPDATE SET
       moved_at = CASE WHEN h.block_number = EXCLUDED.block_number THEN h.moved_at ELSE now() END,
       block_number = EXCLUDED.block_number,
       observed_at = now()`,
    [chainId, blockNumber.toString()],
  );
}

export async function listChainHeads(db: Queryable): Promise<ChainHead[]> {
  const { rows } = await db.query<{ chain_id: string; block_number: string; moved_at: Date; observed_at: Date }>(
    "SELECT chain_id, block_number, moved_at, observed_at FROM crossfill.chain_heads",
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    blockNumber: BigInt(row.block_number),
    movedAt: row.moved_at,
    observedAt: row.observed_at,
  }));
}
