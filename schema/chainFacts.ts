import type pg from "pg";
import {
  type AppliedDeposit,
  type DepositFact,
  type FillFact,
  type LocatedFact,
  MEMPOOL_BLOCK_HASH,
  NO_ORDER,
  type WithdrawalFact,
} from "../src/chains/chainFacts.js";
import type { Queryable } from "./queryable.js";

// The fact shapes are the chain adapters' (src/chains/chainFacts.ts); kept importable from here for the indexers.
export { type AppliedDeposit, type DepositFact, type FillFact, MEMPOOL_BLOCK_HASH, NO_ORDER, type WithdrawalFact };

/** Where Ponder publishes its views (`ponder start --views-schema`). */
export type OnchainSchema = string;

/** The views schema as a quoted SQL identifier; anything but a plain lowercase name is refused. */
export function onchainSchemaIdent(name: OnchainSchema): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return `"${name}"`;
}

/** How many facts of a kind one reconcile pass reads at most: a pass that read this many leaves more for the next. */
export const FACTS_PER_PASS = 200;

/**
 * Which facts a reconcile pass reads: all of them (`{}`), or only those indexed in the last `recentSeconds` (by block
 * time for Ponder's rows, by when they were recorded for the app's own), which index scans find without reading the
 * history.
 */
export type FactWindow = { recentSeconds?: number };

/** The SQL condition a Ponder row (`alias`, block time in seconds) must meet for `window`. */
const ponderWindowSql = (alias: string, window: FactWindow) =>
  window.recentSeconds === undefined
    ? "true"
    : `${alias}.timestamp >= extract(epoch FROM now())::bigint - ${Math.ceil(window.recentSeconds)}`;
/** The SQL condition a row of the app's own fact tables (`alias`) must meet for `window`. */
const recordedWindowSql = (alias: string, window: FactWindow) =>
  window.recentSeconds === undefined
    ? "true"
    : `${alias}.created_at >= now() - make_interval(secs => ${Math.ceil(window.recentSeconds)})`;

/**
 * The deposit facts in `window` not applied to a request yet, from Ponder's view and from the app's own fact table
 * (manual index, pollers), as one relation: a deposit known to both is one row, with the fee whichever source
 * recorded it. Applied ones are left out before the two are merged, so the merge handles only the few new ones. A
 * poller's fact records the id its memo names: a Bitcoin deposit PSBT names its request (`depositOrderSql` maps it to
 * its order), a hand-built one may name the order itself.
 */
function unappliedDepositFacts(onchain: OnchainSchema, window: FactWindow): string {
  const columns =
    "chain_id, tx_hash, log_index, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from";
  const notApplied = (alias: string) =>
    `NOT EXISTS (SELECT 1 FROM crossfill.request_deposits a
                  WHERE a.chain_id = ${alias}.chain_id AND a.tx_hash = ${alias}.tx_hash
                    AND ${sameAppliedDepositSql("a", alias)})`;
  return `(SELECT ${columns}, max(tx_fee) AS tx_fee
             FROM (SELECT chain_id::bigint, tx_hash, log_index, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from, tx_fee
                     FROM ${onchainSchemaIdent(onchain)}.deposit p
                    WHERE ${ponderWindowSql("p", window)} AND ${notApplied("p")}
                   UNION ALL
                   SELECT chain_id, tx_hash, log_index, ${depositOrderSql("f")} AS order_id, depositor, currency, amount,
                          block_number, block_hash, timestamp, tx_from, tx_fee
                     FROM crossfill.deposit_facts f
                    WHERE ${recordedWindowSql("f", window)} AND ${notApplied("f")}) facts
            GROUP BY ${columns})`;
}

/**
 * Whether `applied`, a request_deposits row of the fact's chain and transaction, is the deposit fact `fact`: the same
 * log as mined in the same block, or the same payment (currency, amount, depositor) applied from another block it has
 * not been found reorged out of. A reorg that mines a transaction again is not a second payment: its log index may
 * differ (an EVM log's index counts the whole block's logs), and the fill's check on the node decides what becomes
 * of it (jobs/fill.ts), never a second payout. Only once that block is marked reorged does the deposit count anew.
 */
export const sameAppliedDepositSql = (applied: string, fact: string): string =>
  `((${applied}.log_index = ${fact}.log_index AND ${applied}.block_hash = ${fact}.block_hash)
    OR (${applied}.block_hash <> ${fact}.block_hash AND ${applied}.block_hash <> '${MEMPOOL_BLOCK_HASH}'
        AND ${applied}.reorg IS NULL AND ${applied}.currency = ${fact}.currency AND ${applied}.amount = ${fact}.amount
        AND ${applied}.depositor = ${fact}.depositor))`;

/**
 * The order a deposit fact of table alias `alias` pays: the order of the request its `order_id` names when it names
 * a request (request and order ids are both Keccak-256 outputs: they never collide), else its `order_id` as is.
 */
export const depositOrderSql = (alias: string): string =>
  `coalesce((SELECT named.order_id FROM crossfill.requests named
              WHERE named.id = ${alias}.order_id AND named.parent_request_id IS NULL), ${alias}.order_id)`;

type DepositRow = {
  chain_id: string;
  tx_hash: string;
  log_index: number;
  order_id: string;
  depositor: string;
  currency: string;
  amount: string;
  block_number: string;
  block_hash: string;
  timestamp: string;
  tx_from: string;
  tx_fee: string | null;
};

/**
 * Deposits for known orders that have not been applied to their request yet, oldest first; with a `window`, only
 * those indexed within it. A deposit refunded as unmatched (schema/unmatchedRefunds) is never applied: its money goes
 * back to its payer.
 */
export async function findUnappliedDeposits(
  db: Queryable,
  onchain: OnchainSchema,
  { limit = FACTS_PER_PASS, ...window }: FactWindow & { limit?: number } = {},
): Promise<Array<DepositFact & { requestId: string }>> {
  const { rows } = await db.query<DepositRow & { request_id: string }>(
    `SELECT d.*, r.id AS request_id
       FROM ${unappliedDepositFacts(onchain, window)} d
       JOIN crossfill.requests r ON r.order_id = d.order_id AND r.parent_request_id IS NULL
      WHERE NOT EXISTS (SELECT 1 FROM crossfill.unmatched_refunds u
                         WHERE u.chain_id = d.chain_id AND u.deposit_tx_hash = d.tx_hash AND u.deposit_log_index = d.log_index)
      ORDER BY d.timestamp, d.chain_id, d.block_number, d.log_index
      LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    orderId: row.order_id,
    depositor: row.depositor,
    currency: row.currency,
    amount: BigInt(row.amount),
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash,
    timestamp: BigInt(row.timestamp),
    txFrom: row.tx_from,
    txFee: row.tx_fee === null ? null : BigInt(row.tx_fee),
    requestId: row.request_id,
  }));
}

/**
 * Fills seen on-chain (by Ponder or a poller) for known requests past `waiting` that have not been applied yet, or
 * only provisionally (from the solver's receipt: the indexed fact confirms it); with a `window`, only those indexed
 * within it.
 */
export async function findUnappliedFills(
  db: Queryable,
  onchain: OnchainSchema,
  { limit = FACTS_PER_PASS, ...window }: FactWindow & { limit?: number } = {},
): Promise<FillFact[]> {
  const notApplied = (alias: string) =>
    `NOT EXISTS (SELECT 1 FROM crossfill.request_fills a
                  WHERE a.chain_id = ${alias}.chain_id AND a.tx_hash = ${alias}.tx_hash AND a.log_index = ${alias}.log_index
                    AND NOT a.provisional)`;
  const { rows } = await db.query<{
    chain_id: string;
    tx_hash: string;
    log_index: number;
    request_id: string;
    currency: string;
    recipient: string;
    amount: string;
    block_number: string;
    block_hash: string;
    timestamp: string;
    tx_fee: string | null;
  }>(
    `SELECT f.chain_id, f.tx_hash, f.log_index, f.request_id, f.currency, f.recipient, f.amount, f.block_number, f.block_hash,
            f.timestamp, f.tx_fee
       FROM (SELECT chain_id::bigint, tx_hash, log_index, request_id, currency, recipient, amount, block_number, block_hash,
                    timestamp, tx_fee
               FROM ${onchainSchemaIdent(onchain)}.fill p
              WHERE ${ponderWindowSql("p", window)} AND ${notApplied("p")}
             UNION ALL
             SELECT chain_id, tx_hash, log_index, request_id, currency, recipient, amount, block_number, block_hash,
                    timestamp, tx_fee
               FROM crossfill.fill_facts p
              WHERE ${recordedWindowSql("p", window)} AND ${notApplied("p")}) f
       -- a request still waiting has no deposit applied yet: its fill is read once it has (statuses never go back)
       JOIN crossfill.requests r ON r.id = f.request_id AND r.status <> 'waiting'
      ORDER BY f.timestamp, f.block_number, f.log_index
      LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    requestId: row.request_id,
    currency: row.currency,
    recipient: row.recipient,
    amount: BigInt(row.amount),
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash,
    timestamp: BigInt(row.timestamp),
    txFee: row.tx_fee === null ? null : BigInt(row.tx_fee),
  }));
}

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
  ["log_index", "integer", (fact) => fact.logIndex],
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
        AND (tx_hash, log_index) NOT IN (SELECT * FROM unnest($4::text[], $5::integer[]))`,
    [chainId, MEMPOOL_BLOCK_HASH, POLLER_SOURCE, facts.map((fact) => fact.txHash), facts.map((fact) => fact.logIndex)],
  );
  await insertDepositFacts(db, facts, POLLER_SOURCE);
}

/** Records deposits indexed by hand (POST /transactions/index), in the adapter's encodings; true for each new one. */
export async function insertManualDepositFacts(db: Queryable, facts: readonly DepositFact[]): Promise<number> {
  for (const fact of facts) await dropMempoolDepositFacts(db, fact.chainId, [fact.txHash]);
  return insertDepositFacts(db, facts, "manual");
}

/** Which output of which transaction on which chain a deposit is. */
const outputKey = (fact: Pick<DepositFact, "chainId" | "txHash" | "logIndex">) => [
  fact.chainId,
  fact.txHash,
  fact.logIndex,
];
/** Which deposit, as mined in which block, an applied one is: request_deposits' key. */
const appliedKey = (deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "logIndex" | "blockHash">) => [
  ...outputKey(deposit),
  deposit.blockHash,
];

/**
 * Moves a deposit applied from its mempool sighting to the block it was mined in (no status change: it is the same
 * payment); false when no such sighting was applied (the fact is a new deposit, or a mined one moved elsewhere).
 */
export async function confirmMempoolDeposit(db: Queryable, fact: DepositFact): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.request_deposits SET block_hash = $4, block_number = $5, timestamp = $6
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $7 AND reorg IS NULL`,
    [...outputKey(fact), fact.blockHash, fact.blockNumber.toString(), fact.timestamp.toString(), MEMPOOL_BLOCK_HASH],
  );
  return result.rowCount === 1;
}

/** A fill as a poller records it: with its block's hash, so a reorg can take it back. */

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

/** Deletes what a poller recorded above `height` on its chain (blocks a reorg orphaned), as Ponder deletes its rows. */
export async function deletePolledFactsAbove(db: Queryable, chainId: number, height: number): Promise<void> {
  await db.query(`DELETE FROM crossfill.deposit_facts WHERE chain_id = $1 AND block_number > $2 AND source = $3`, [
    chainId,
    height,
    POLLER_SOURCE,
  ]);
  await db.query(`DELETE FROM crossfill.fill_facts WHERE chain_id = $1 AND block_number > $2`, [chainId, height]);
  await db.query(`DELETE FROM crossfill.withdrawal_facts WHERE chain_id = $1 AND block_number > $2`, [chainId, height]);
}

/** Marks a deposit as applied to its request; false when it already was (the unique key decides). */
export async function recordRequestDeposit(
  client: pg.PoolClient,
  fact: DepositFact & { requestId: string },
): Promise<boolean> {
  return (await recordRequestDeposits(client, [fact])) === 1;
}

/** Marks deposits as applied to their requests in one statement; how many were not already (the unique key decides). */
export async function recordRequestDeposits(
  client: pg.PoolClient,
  facts: ReadonlyArray<DepositFact & { requestId: string }>,
): Promise<number> {
  const column = <T>(value: (fact: DepositFact & { requestId: string }) => T) => facts.map(value);
  const result = await client.query(
    `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash, tx_fee)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                          $8::bigint[], $9::bigint[], $10::text[], $11::numeric[])
     ON CONFLICT DO NOTHING`,
    [
      column((fact) => fact.chainId),
      column((fact) => fact.txHash),
      column((fact) => fact.logIndex),
      column((fact) => fact.requestId),
      column((fact) => fact.depositor),
      column((fact) => fact.currency),
      column((fact) => fact.amount.toString()),
      column((fact) => fact.blockNumber.toString()),
      column((fact) => fact.timestamp.toString()),
      column((fact) => fact.blockHash),
      column((fact) => fact.txFee?.toString() ?? null),
    ],
  );
  return result.rowCount ?? 0;
}

type AppliedDepositRow = {
  chain_id: string;
  tx_hash: string;
  log_index: number;
  block_hash: string;
  depositor: string;
  currency: string;
  amount: string;
  block_number: string;
};

const APPLIED_DEPOSIT_COLUMNS = "chain_id, tx_hash, log_index, block_hash, depositor, currency, amount, block_number";

function toAppliedDeposit(row: AppliedDepositRow): AppliedDeposit {
  return {
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    blockHash: row.block_hash,
    depositor: row.depositor,
    currency: row.currency,
    amount: BigInt(row.amount),
    blockNumber: BigInt(row.block_number),
  };
}

/** Deposits applied to a request and not reorged out, first first. */
export async function listRequestDeposits(db: Queryable, requestId: string): Promise<AppliedDeposit[]> {
  const { rows } = await db.query<AppliedDepositRow>(
    `SELECT ${APPLIED_DEPOSIT_COLUMNS} FROM crossfill.request_deposits
      WHERE request_id = $1 AND reorg IS NULL ORDER BY timestamp, block_number, log_index`,
    [requestId],
  );
  return rows.map(toAppliedDeposit);
}

/**
 * One applied deposit by its place in the chain: the standing one if any, else the last found reorged out
 * (`reorged`); undefined when no request applied it.
 */
export async function findAppliedDeposit(
  db: Queryable,
  key: { chainId: number; txHash: string; logIndex: number },
): Promise<{ deposit: AppliedDeposit; reorged: boolean } | undefined> {
  const { rows } = await db.query<AppliedDepositRow & { reorged: boolean }>(
    `SELECT ${APPLIED_DEPOSIT_COLUMNS}, reorg IS NOT NULL AS reorged FROM crossfill.request_deposits
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 ORDER BY reorg IS NOT NULL, block_number DESC LIMIT 1`,
    [key.chainId, key.txHash, key.logIndex],
  );
  return rows[0] && { deposit: toAppliedDeposit(rows[0]), reorged: rows[0].reorged };
}

/**
 * Moves request `requestId`'s applied deposit to the block a reorg mined its transaction again in (and its log index
 * there): the same payment, whose confirmations then count from that block. True also when another run moved it there
 * already (two jobs of one request may check the deposit side by side). False when it was not there to move (reorged
 * out), or when that block's deposit is applied to another request already.
 */
export async function moveAppliedDeposit(
  db: Queryable,
  requestId: string,
  deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "logIndex" | "blockHash">,
  to: { logIndex: number; blockNumber: bigint; blockHash: string; timestamp: bigint },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.request_deposits SET log_index = $5, block_hash = $6, block_number = $7, timestamp = $8
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4 AND reorg IS NULL
        AND NOT EXISTS (SELECT 1 FROM crossfill.request_deposits there
                         WHERE there.chain_id = $1 AND there.tx_hash = $2 AND there.log_index = $5 AND there.block_hash = $6)`,
    [...appliedKey(deposit), to.logIndex, to.blockHash, to.blockNumber.toString(), to.timestamp.toString()],
  );
  if (result.rowCount === 1) return true;
  // A statement of its own: one that waited for the other run's row lock would read with a snapshot from before.
  const there = await db.query(
    `SELECT 1 FROM crossfill.request_deposits
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4 AND reorg IS NULL AND request_id = $5`,
    [deposit.chainId, deposit.txHash, to.logIndex, to.blockHash, requestId],
  );
  return there.rowCount === 1;
}

/** Marks an applied deposit as reorged out, with the context the request record shows. */
export async function markDepositReorged(
  db: Queryable,
  deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "logIndex" | "blockHash">,
  reorg: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `UPDATE crossfill.request_deposits SET reorg = $5 WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4`,
    [...appliedKey(deposit), JSON.stringify(reorg)],
  );
}
