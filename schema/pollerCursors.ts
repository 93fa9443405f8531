import type pg from "pg";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";
import type { Queryable } from "./queryable.js";

/**
 * Where a poller has read its chain up to, as its source gave it (indexers/poller/pollerSource.ts). `position` orders
 * the chain's own sequence: a block height, a Solana slot, a TON account's lt, a ledger's time; the facts read at a
 * cursor a reorg check may take back carry it as their `blockNumber`. `key` is what the source reads on from, opaque
 * to the loop (a block hash, `lt:hash`, a page token). `blockHash` is set when the cursor stands at a block. A TON lt or a
 * ledger's position can pass 2^53: `position` is a `FactPosition` (an exact bigint beyond the safe integers, one
 * canonical form), kept as `bigint` in Postgres and sent to it as a decimal string.
 */
export type PollerCursor = { position: FactPosition; key: string; blockHash?: string };

type CursorRow = { height: string; cursor: string; block_hash: string | null };
const pollerCursor = (row: CursorRow): PollerCursor => ({
  position: factPosition(row.height),
  key: row.cursor,
  ...(row.block_hash === null ? {} : { blockHash: row.block_hash }),
});

/** The cursors a chain's poller recorded and still keeps, newest first: the first is where it goes on from. */
export async function recentPollerCursors(db: Queryable, chainId: number, limit?: number): Promise<PollerCursor[]> {
  const { rows } = await db.query<CursorRow>(
    `SELECT height, cursor, block_hash FROM crossfill.poller_blocks WHERE chain_id = $1 ORDER BY height DESC LIMIT $2`,
    [chainId, limit ?? null],
  );
  return rows.map(pollerCursor);
}

/**
 * Records cursors a poller passed (the last is where it goes on from) and forgets those whose position is `keep` or
 * more below it. A cursor at a position already kept replaces it: a ledger's page may end in the millisecond the one
 * before did. Called in the transaction that writes the facts read up to them, so a crash leaves both or neither.
 */
export async function recordPollerCursors(
  client: pg.PoolClient,
  chainId: number,
  cursors: readonly PollerCursor[],
  keep: number,
): Promise<void> {
  await client.query(
    `INSERT INTO crossfill.poller_blocks (chain_id, height, cursor, block_hash)
     SELECT $1, height, cursor, block_hash FROM unnest($2::bigint[], $3::text[], $4::text[]) AS c (height, cursor, block_hash)
     ON CONFLICT (chain_id, height) DO UPDATE SET cursor = EXCLUDED.cursor, block_hash = EXCLUDED.block_hash, processed_at = now()`,
    [
      chainId,
      cursors.map((cursor) => String(cursor.position)),
      cursors.map((cursor) => cursor.key),
      cursors.map((cursor) => cursor.blockHash ?? null),
    ],
  );
  await client.query(
    `DELETE FROM crossfill.poller_blocks WHERE chain_id = $1 AND height <= (SELECT max(height) FROM crossfill.poller_blocks WHERE chain_id = $1) - $2`,
    [chainId, keep],
  );
}

/** Forgets the cursors above `position` (orphaned by a reorg): the poller goes on from the one at `position`. */
export async function rewindPollerCursors(
  client: pg.PoolClient,
  chainId: number,
  position: FactPosition,
): Promise<void> {
  await client.query(`DELETE FROM crossfill.poller_blocks WHERE chain_id = $1 AND height > $2`, [
    chainId,
    String(position),
  ]);
}
