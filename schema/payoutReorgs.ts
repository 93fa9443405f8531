import type pg from "pg";
import { type OnchainSchema, onchainSchemaIdent } from "./onchainSchemaIdent.js";
import type { Queryable } from "./queryable.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

/** An applied fill whose fact its poller deleted: the block that held the payout left the chain. */
export type OrphanedFill = {
  requestId: string;
  chainId: number;
  txHash: string;
  position: FactPosition;
  blockNumber: bigint;
};

/** What is kept of one payout reorged out, on its fill attempt (`payout_reorgs`). */
export type PayoutReorg = {
  detectedAt: number;
  source: "poller";
  reason: string;
  txHash: string;
  blockNumber: number;
  action: "rebroadcast";
};

/**
 * Applied fills of the blocks a poller still keeps (the only ones it can walk back) whose fact is gone: the poller
 * deleted it on a reorg and the new chain does not hold the payout (yet). A fill Ponder's views still hold (a chain
 * both index, as in tests) is not one: they are asked only about the few candidates, never scanned every pass.
 */
export async function findOrphanedFills(db: Queryable, onchain: OnchainSchema, limit = 100): Promise<OrphanedFill[]> {
  const { rows } = await db.query<{
    request_id: string;
    chain_id: string;
    tx_hash: string;
    log_index: string;
    block_number: string;
  }>(
    `SELECT f.request_id, f.chain_id, f.tx_hash, f.log_index, f.block_number
       FROM (SELECT chain_id, min(height) AS low FROM crossfill.poller_blocks GROUP BY chain_id) kept
       JOIN crossfill.request_fills f ON f.chain_id = kept.chain_id AND f.block_number >= kept.low
      WHERE NOT EXISTS (SELECT 1 FROM crossfill.fill_facts x
                         WHERE x.chain_id = f.chain_id AND x.tx_hash = f.tx_hash AND x.log_index = f.log_index)
      LIMIT $1`,
    [limit],
  );
  const orphans: OrphanedFill[] = [];
  for (const row of rows) {
    const indexed = await db.query(
      `SELECT 1 FROM ${onchainSchemaIdent(onchain)}.fill WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3`,
      [row.chain_id, row.tx_hash, row.log_index],
    );
    if (indexed.rows.length > 0) continue;
    orphans.push({
      requestId: row.request_id,
      chainId: Number(row.chain_id),
      txHash: row.tx_hash,
      position: factPosition(row.log_index),
      blockNumber: BigInt(row.block_number),
    });
  }
  return orphans;
}

/**
 * Un-applies an orphaned fill (its fact, mined again, is applied anew) and keeps the event on the fill attempt; false
 * when another pass did it first.
 */
export async function recordPayoutReorg(
  client: pg.PoolClient,
  orphan: OrphanedFill,
  reorg: PayoutReorg,
): Promise<boolean> {
  const deleted = await client.query(
    "DELETE FROM crossfill.request_fills WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3",
    [orphan.chainId, orphan.txHash, orphan.position],
  );
  if (deleted.rowCount !== 1) return false;
  await client.query(
    "UPDATE crossfill.fill_attempts SET payout_reorgs = payout_reorgs || jsonb_build_array($2::jsonb) WHERE request_id = $1",
    [orphan.requestId, JSON.stringify(reorg)],
  );
  return true;
}

/** A fill attempt (`a`) whose payout was reorged out and is not applied again yet. */
export const REORGED_OUT = `a.payout_reorgs <> '[]'
        AND NOT EXISTS (SELECT 1 FROM crossfill.request_fills f WHERE f.request_id = a.request_id)`;

/** Requests whose payout was reorged out and is not applied again yet: their fill job follows the payout. */
export async function findReorgedPayouts(db: Queryable, limit = 200): Promise<string[]> {
  const { rows } = await db.query<{ request_id: string }>(
    `SELECT a.request_id FROM crossfill.fill_attempts a WHERE ${REORGED_OUT} LIMIT $1`,
    [limit],
  );
  return rows.map((row) => row.request_id);
}

/** Whether one request's payout was reorged out and is not applied again yet. */
export async function isPayoutReorgedOut(db: Queryable, requestId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM crossfill.fill_attempts a WHERE a.request_id = $1 AND ${REORGED_OUT}`,
    [requestId],
  );
  return rows.length > 0;
}

/** The payout reorgs kept on a request's fill attempt, oldest first. */
export async function listPayoutReorgs(db: Queryable, requestId: string): Promise<PayoutReorg[]> {
  const { rows } = await db.query<{ payout_reorgs: PayoutReorg[] }>(
    "SELECT payout_reorgs FROM crossfill.fill_attempts WHERE request_id = $1",
    [requestId],
  );
  return rows[0]?.payout_reorgs ?? [];
}
