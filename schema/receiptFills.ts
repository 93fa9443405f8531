import type { FillFact } from "./chainFacts.js";
import { type OnchainSchema, onchainSchemaIdent } from "./onchainSchemaIdent.js";
import type { Queryable } from "./queryable.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

const key = (fact: Pick<FillFact, "chainId" | "txHash" | "position">) => [fact.chainId, fact.txHash, fact.position];

/** A new fill row's values, in the column order (chain_id … tx_fee) both inserts below use. */
const fillRowValues = (fact: FillFact) => [
  ...key(fact),
  fact.requestId,
  fact.amount.toString(),
  fact.blockNumber.toString(),
  fact.blockHash,
  fact.timestamp.toString(),
  fact.txFee?.toString() ?? null,
];

/**
 * Records the fill of a request that succeeded on its receipt as a provisional applied fill, with its block's hash so
 * a reorg check can ask the node for it again. The same fill seen
 * again in another block (mined again after a reorg) moves there, its disagreement kept as what happened; a
 * confirmed fill is never touched, nor is a request that has another fill. True when something was written.
 */
export async function recordReceiptFill(db: Queryable, fact: FillFact): Promise<boolean> {
  const moved = await db.query(
    `UPDATE crossfill.request_fills
        SET block_number = $4, block_hash = $5, timestamp = $6, tx_fee = $7
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND provisional AND block_hash IS DISTINCT FROM $5`,
    [
      ...key(fact),
      fact.blockNumber.toString(),
      fact.blockHash,
      fact.timestamp.toString(),
      fact.txFee?.toString() ?? null,
    ],
  );
  if (moved.rowCount === 1) return true;
  const inserted = await db.query(
    `INSERT INTO crossfill.request_fills
       (chain_id, tx_hash, log_index, request_id, amount, block_number, block_hash, timestamp, tx_fee, provisional)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true) ON CONFLICT DO NOTHING`,
    fillRowValues(fact),
  );
  return inserted.rowCount === 1;
}

/**
 * What applying an indexed fill did: `new` (the request had no fill), `confirmed` (its provisional fill is this one),
 * `replaced` (its provisional fill was another transaction: the indexed one takes its place, the receipt's hash kept
 * in `disagreement`), or `none` (applied already, or the request has another confirmed fill).
 */
export type IndexedFillResult =
  { applied: "new" | "confirmed" | "none" } | { applied: "replaced"; receiptTxHash: string };

/**
 * Applies an indexed fill to its request's fills; see IndexedFillResult. Its block's hash is kept whichever came first,
 * the receipt or the index, so a reorg that drops the fill is followed either way (checkReceiptFills). A "not indexed"
 * note is no longer true once the index shows the fill: it goes; what a reorg did stays as what happened.
 */
export async function applyIndexedFill(db: Queryable, fact: FillFact): Promise<IndexedFillResult> {
  const confirmed = await db.query(
    `UPDATE crossfill.request_fills
        SET provisional = false, amount = $4, block_number = $5, block_hash = $6, timestamp = $7,
            tx_fee = coalesce($8, tx_fee),
            disagreement = CASE WHEN disagreement->>'reason' = 'not indexed' THEN NULL ELSE disagreement END
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND provisional`,
    [
      ...key(fact),
      fact.amount.toString(),
      fact.blockNumber.toString(),
      fact.blockHash,
      fact.timestamp.toString(),
      fact.txFee?.toString() ?? null,
    ],
  );
  if (confirmed.rowCount === 1) return { applied: "confirmed" };
  const replaced = await db.query<{ tx_hash: string }>(
    `DELETE FROM crossfill.request_fills WHERE request_id = $1 AND provisional RETURNING tx_hash`,
    [fact.requestId],
  );
  const receiptTxHash = replaced.rows[0]?.tx_hash;
  const disagreement = receiptTxHash ? { reason: "indexed another fill", receiptTxHash, detectedAt: Date.now() } : null;
  const inserted = await db.query(
    `INSERT INTO crossfill.request_fills
       (chain_id, tx_hash, log_index, request_id, amount, block_number, block_hash, timestamp, tx_fee, disagreement)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [...fillRowValues(fact), disagreement && JSON.stringify(disagreement)],
  );
  if (inserted.rowCount !== 1) return { applied: "none" };
  return receiptTxHash ? { applied: "replaced", receiptTxHash } : { applied: "new" };
}

/** An applied fill with its block's hash (from the receipt or the index) that the indexer does not show (yet, or any more). */
export type UnindexedFill = {
  requestId: string;
  chainId: number;
  txHash: string;
  position: FactPosition;
  blockNumber: bigint;
  blockHash: string;
  provisional: boolean;
  disagreement: Record<string, unknown> | null;
  /** When the fill was recorded, unix ms. */
  recordedAt: number;
};

/**
 * Fills applied (from a receipt or the index) between `withinMs` and `olderThanMs` ago that no indexed fact (Ponder's view or the
 * app's fill facts) shows now, oldest first: not indexed yet, or gone from the index (a reorg), confirmed or not.
 */
export async function findReceiptFillsNotIndexed(
  db: Queryable,
  onchain: OnchainSchema,
  window: { olderThanMs: number; withinMs: number },
  limit = 100,
): Promise<UnindexedFill[]> {
  const { rows } = await db.query<{
    request_id: string;
    chain_id: string;
    tx_hash: string;
    log_index: string;
    block_number: string;
    block_hash: string;
    provisional: boolean;
    disagreement: Record<string, unknown> | null;
    recorded_at: Date;
  }>(
    `SELECT f.request_id, f.chain_id, f.tx_hash, f.log_index, f.block_number, f.block_hash, f.provisional, f.disagreement,
            f.created_at AS recorded_at
       FROM crossfill.request_fills f
      WHERE f.block_hash IS NOT NULL
        AND f.created_at < now() - make_interval(secs => $1::double precision / 1000)
        AND f.created_at > now() - make_interval(secs => $2::double precision / 1000)
        -- by Ponder's key (indexers/evm/src/Receiver.ts), so each is one index lookup
        AND NOT EXISTS (SELECT 1 FROM ${onchainSchemaIdent(onchain)}.fill i
                         WHERE i.id = f.chain_id || ':' || f.tx_hash || ':' || f.log_index)
        AND NOT EXISTS (SELECT 1 FROM crossfill.fill_facts i
                         WHERE i.chain_id = f.chain_id AND i.tx_hash = f.tx_hash AND i.log_index = f.log_index)
      ORDER BY f.created_at LIMIT $3`,
    [window.olderThanMs, window.withinMs, limit],
  );
  return rows.map((row) => ({
    requestId: row.request_id,
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    position: factPosition(row.log_index),
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash,
    provisional: row.provisional,
    disagreement: row.disagreement,
    recordedAt: row.recorded_at.getTime(),
  }));
}

/**
 * Notes why the indexer's view of a fill differs; the fill is provisional again (a confirmed fill reorged out must be
 * confirmed anew). False when there is no such fill.
 */
export async function markFillDisagreement(
  db: Queryable,
  fill: Pick<FillFact, "chainId" | "txHash" | "position">,
  disagreement: Record<string, unknown>,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.request_fills SET disagreement = $4, provisional = true
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3`,
    [...key(fill), JSON.stringify(disagreement)],
  );
  return result.rowCount === 1;
}
