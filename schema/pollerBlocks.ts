import type pg from "pg";
import type { Queryable } from "./queryable.js";

/** A block as a poller knows it: its height on its chain and its hash (in the chain's own encoding). */
export type BlockRef = { height: number; hash: string };

type BlockRow = { height: string; block_hash: string };
const blockRef = (row: BlockRow): BlockRef => ({ height: Number(row.height), hash: row.block_hash });

/** The blocks a chain's poller processed and still keeps, newest first: the first is its cursor. */
export async function recentPollerBlocks(db: Queryable, chainId: number, limit?: number): Promise<BlockRef[]> {
  const { rows } = await db.query<BlockRow>(
    `SELECT height, block_hash FROM crossfill.poller_blocks WHERE chain_id = $1 ORDER BY height DESC LIMIT $2`,
    [chainId, limit ?? null],
  );
  return rows.map(blockRef);
}

/**
 * Records processed blocks (the cursor moves to the last) and forgets those more than `keep` below it. Called in the
 * transaction that writes the blocks' facts, so a crash leaves both or neither.
 */
export async function recordPollerBlocks(
  client: pg.PoolClient,
  chainId: number,
  blocks: readonly BlockRef[],
  keep: number,
): Promise<void> {
  await client.query(
    `INSERT INTO crossfill.poller_blocks (chain_id, height, block_hash)
     SELECT $1, height, block_hash FROM unnest($2::bigint[], $3::text[]) AS b (height, block_hash)`,
    [chainId, blocks.map((block) => block.height), blocks.map((block) => block.hash)],
  );
  await client.query(
    `DELETE FROM crossfill.poller_blocks WHERE chain_id = $1 AND height <= (SELECT max(height) FROM crossfill.poller_blocks WHERE chain_id = $1) - $2`,
    [chainId, keep],
  );
}

/** Forgets the blocks above `height` (orphaned by a reorg): the cursor moves back to `height`. */
export async function rewindPollerBlocks(client: pg.PoolClient, chainId: number, height: number): Promise<void> {
  await client.query(`DELETE FROM crossfill.poller_blocks WHERE chain_id = $1 AND height > $2`, [chainId, height]);
}
