import {
  type DepositFact,
  type FillFact,
  type LocatedFact,
  MEMPOOL_BLOCK_HASH,
  NO_ORDER,
  type WithdrawalFact,
} from "../src/chains/chainFacts.js";
import type { FactPosition } from "../src/domain/factPosition.js";
import type { Queryable } from "./queryable.js";

// The fact shapes are the chain adapters' (src/chains/chainFacts.ts); kept importable from here for the indexers.
export { type DepositFact, type FillFact, MEMPOOL_BLOCK_HASH, NO_ORDER, type WithdrawalFact };

/** Records a deposit fact the app learned itself from an EVM receipt (manual index); a repeat is a no-op. */
export async function insertDepositFact(db: Queryable, fact: DepositFact, source: string): Promise<boolean> {
  const lowercased = {
    ...fact,
    txHash: fact.txHash.toLowerCase(),
    orderId: fact.orderId.toLowerCase(),
    depositor: fact.depositor.toLowerCase(),
    currency: fact.currency.toLowerCase(),
    blockHash: fact.blockHash.toLowerCase(),
    txFrom: fact.txFrom.toLowerCase(),
  };
  return (await insertDepositFacts(db, [lowercased], source)) === 1;
}

/** The `source` of the deposit facts pollers write (indexers/poller): theirs to delete on a reorg. */
export const POLLER_SOURCE = "poller";

/**
 * The `source` of the deposit facts the EVM head watcher writes (indexers/evm/startDepositWatcher): theirs to delete
 * when a reorg orphans their block. Ponder records the same deposits under the same key a little later.
 */
export const HEAD_WATCHER_SOURCE = "evm-head";

/** The blocks of a chain from `fromBlock` on in which `source` recorded deposit facts, lowest first. */
export async function depositFactBlocks(
  db: Queryable,
  chainId: number,
  source: string,
  fromBlock: bigint,
): Promise<Array<{ number: bigint; hash: string }>> {
  const { rows } = await db.query<{ block_number: string; block_hash: string }>(
    `SELECT DISTINCT block_number, block_hash FROM crossfill.deposit_facts
      WHERE chain_id = $1 AND source = $2 AND block_number >= $3 AND block_hash <> $4
      ORDER BY block_number`,
    [chainId, source, fromBlock.toString(), MEMPOOL_BLOCK_HASH],
  );
  return rows.map((row) => ({ number: BigInt(row.block_number), hash: row.block_hash }));
}

/** Deletes the deposit facts `source` recorded in these blocks of a chain (a reorg orphaned them). */
export async function deleteDepositFactsOfBlocks(
  db: Queryable,
  chainId: number,
  source: string,
  blockHashes: readonly string[],
): Promise<number> {
  if (blockHashes.length === 0) return 0;
  const result = await db.query(
    `DELETE FROM crossfill.deposit_facts WHERE chain_id = $1 AND source = $2 AND block_hash = ANY($3::text[])`,
    [chainId, source, [...blockHashes]],
  );
  return result.rowCount ?? 0;
}

/**
 * Forgets the head watcher's facts recorded more than `olderThanMs` ago: they only got deposits ahead of Ponder's rows,
 * which are the record (the applied ones are in `request_deposits`). Returns how many were deleted.
 */
export async function pruneHeadWatcherFacts(db: Queryable, olderThanMs: number): Promise<number> {
  const result = await db.query(
    "DELETE FROM crossfill.deposit_facts WHERE source = $1 AND created_at < now() - make_interval(secs => $2 / 1000.0)",
    [HEAD_WATCHER_SOURCE, olderThanMs],
  );
  return result.rowCount ?? 0;
}

/** A column of a fact table: its name, its Postgres type and the fact's value for it. */
type Column<Fact> = readonly [name: string, type: string, value: (fact: Fact) => unknown];

const locatedColumns: Column<LocatedFact>[] = [
  ["chain_id", "bigint", (fact) => fact.chainId],
  ["tx_hash", "text", (fact) => fact.txHash],
  ["log_index", "bigint", (fact) => fact.position.toString()],
  ["currency", "text", (fact) => fact.currency],
  ["amount", "numeric", (fact) => fact.amount.toString()],
  ["block_number", "bigint", (fact) => fact.blockNumber.toString()],
  ["block_hash", "text", (fact) => fact.blockHash],
  ["timestamp", "bigint", (fact) => fact.timestamp.toString()],
];

/** Inserts facts in one statement, values as given; a fact already there (same key) is skipped. Returns how many were new. */
async function insertFacts<Fact>(
  db: Queryable,
  table: string,
  columns: readonly Column<Fact>[],
  facts: readonly Fact[],
): Promise<number> {
  const result = await db.query(
    `INSERT INTO crossfill.${table} (${columns.map(([name]) => name).join(", ")})
     SELECT * FROM unnest(${columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(", ")})
     ON CONFLICT DO NOTHING`,
    columns.map(([, , value]) => facts.map(value)),
  );
  return result.rowCount ?? 0;
}

/**
 * Records deposit facts as given (a poller's chain has its own encodings of hashes and addresses); repeats are no-ops.
 * Returns how many were new.
 */
export function insertDepositFacts(db: Queryable, facts: readonly DepositFact[], source: string): Promise<number> {
  return insertFacts<DepositFact>(
    db,
    "deposit_facts",
    [
      ...locatedColumns,
      ["order_id", "text", (fact) => fact.orderId],
      ["depositor", "text", (fact) => fact.depositor],
      ["tx_from", "text", (fact) => fact.txFrom],
      ["tx_fee", "numeric", (fact) => fact.txFee?.toString() ?? null],
      ["source", "text", () => source],
    ],
    facts,
  );
}

/** Forgets the mempool sightings of these transactions' deposits: their block's facts take their place. */
export async function dropMempoolDepositFacts(
  db: Queryable,
  chainId: number,
  txHashes: readonly string[],
): Promise<void> {
  if (txHashes.length === 0) return;
  await db.query(
    `DELETE FROM crossfill.deposit_facts WHERE chain_id = $1 AND block_hash = $2 AND tx_hash = ANY($3::text[])`,
    [chainId, MEMPOOL_BLOCK_HASH, [...new Set(txHashes)]],
  );
}

/**
 * Records what a poller sees in the mempool now (facts with `MEMPOOL_BLOCK_HASH`): sightings no longer there
 * (mined, replaced, dropped) are forgotten, new ones added, those still there keep their first-seen time. A
 * deposit already recorded in a block is not recorded again.
 */
export async function replaceMempoolDepositFacts(
  db: Queryable,
  chainId: number,
  facts: readonly DepositFact[],
): Promise<void> {
  await db.query(
    `DELETE FROM crossfill.deposit_facts
      WHERE chain_id = $1 AND block_hash = $2 AND source = $3
        AND (tx_hash, log_index) NOT IN (SELECT * FROM unnest($4::text[], $5::bigint[]))`,
    [
      chainId,
      MEMPOOL_BLOCK_HASH,
      POLLER_SOURCE,
      facts.map((fact) => fact.txHash),
      facts.map((fact) => fact.position.toString()),
    ],
  );
  await insertDepositFacts(db, facts, POLLER_SOURCE);
}

/** Records deposits indexed by hand (POST /transactions/index), in the adapter's encodings; true for each new one. */
export async function insertManualDepositFacts(db: Queryable, facts: readonly DepositFact[]): Promise<number> {
  for (const fact of facts) await dropMempoolDepositFacts(db, fact.chainId, [fact.txHash]);
  return insertDepositFacts(db, facts, "manual");
}

/** Records fills a poller read; repeats are no-ops. */
export async function insertFillFacts(db: Queryable, facts: readonly FillFact[]): Promise<void> {
  await insertFacts<FillFact>(
    db,
    "fill_facts",
    [
      ...locatedColumns,
      ["request_id", "text", (fact) => fact.requestId],
      ["recipient", "text", (fact) => fact.recipient],
      ["tx_fee", "numeric", (fact) => fact.txFee?.toString() ?? null],
    ],
    facts,
  );
}

/** Records withdrawals a poller read; repeats are no-ops. */
export async function insertWithdrawalFacts(db: Queryable, facts: readonly WithdrawalFact[]): Promise<void> {
  await insertFacts<WithdrawalFact>(
    db,
    "withdrawal_facts",
    [...locatedColumns, ["order_id", "text", (fact) => fact.orderId], ["recipient", "text", (fact) => fact.recipient]],
    facts,
  );
}

/**
 * Deletes what a poller recorded above `position` on its chain (what a reorg orphaned), as Ponder deletes its rows: the
 * facts whose `blockNumber` is above the cursor's position.
 */
export async function deletePolledFactsAbove(db: Queryable, chainId: number, position: FactPosition): Promise<void> {
  const above = String(position);
  await db.query(`DELETE FROM crossfill.deposit_facts WHERE chain_id = $1 AND block_number > $2 AND source = $3`, [
    chainId,
    above,
    POLLER_SOURCE,
  ]);
  await db.query(`DELETE FROM crossfill.fill_facts WHERE chain_id = $1 AND block_number > $2`, [chainId, above]);
  await db.query(`DELETE FROM crossfill.withdrawal_facts WHERE chain_id = $1 AND block_number > $2`, [chainId, above]);
}
