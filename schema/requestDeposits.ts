import type pg from "pg";
import { type AppliedDeposit, type DepositFact, MEMPOOL_BLOCK_HASH } from "../src/chains/chainFacts.js";
import type { Queryable } from "./queryable.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

export type { AppliedDeposit };

/**
 * Whether `applied`, a request_deposits row of the fact's chain and transaction, is the deposit fact `fact`: the same
 * log as mined in the same block, or the same payment (currency, amount, depositor) applied from another block it has
 * not been found reorged out of. A reorg that mines a transaction again is not a second payment: its log index may
 * differ (an EVM log's index counts the whole block's logs), and the fill's check on the node decides what becomes
 * of it (jobs/createFillProcessor.ts), never a second payout. Only once that block is marked reorged does the deposit count anew.
 */
export const sameAppliedDepositSql = (applied: string, fact: string): string =>
  `((${applied}.log_index = ${fact}.log_index AND ${applied}.block_hash = ${fact}.block_hash)
    OR (${applied}.block_hash <> ${fact}.block_hash AND ${applied}.block_hash <> '${MEMPOOL_BLOCK_HASH}'
        AND ${applied}.reorg IS NULL AND ${applied}.currency = ${fact}.currency AND ${applied}.amount = ${fact}.amount
        AND ${applied}.depositor = ${fact}.depositor))`;

/** Which output of which transaction on which chain a deposit is. */
const outputKey = (fact: Pick<DepositFact, "chainId" | "txHash" | "position">) => [
  fact.chainId,
  fact.txHash,
  fact.position,
];
/** Which deposit, as mined in which block, an applied one is: request_deposits' key. */
const appliedKey = (deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "position" | "blockHash">) => [
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
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                          $8::bigint[], $9::bigint[], $10::text[], $11::numeric[])
     ON CONFLICT DO NOTHING`,
    [
      column((fact) => fact.chainId),
      column((fact) => fact.txHash),
      column((fact) => fact.position.toString()),
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
  log_index: string;
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
    position: factPosition(row.log_index),
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
  key: { chainId: number; txHash: string; position: FactPosition },
): Promise<{ deposit: AppliedDeposit; reorged: boolean } | undefined> {
  const { rows } = await db.query<AppliedDepositRow & { reorged: boolean }>(
    `SELECT ${APPLIED_DEPOSIT_COLUMNS}, reorg IS NOT NULL AS reorged FROM crossfill.request_deposits
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 ORDER BY reorg IS NOT NULL, block_number DESC LIMIT 1`,
    [key.chainId, key.txHash, key.position],
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
  deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "position" | "blockHash">,
  to: { position: FactPosition; blockNumber: bigint; blockHash: string; timestamp: bigint },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.request_deposits SET log_index = $5, block_hash = $6, block_number = $7, timestamp = $8
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4 AND reorg IS NULL
        AND NOT EXISTS (SELECT 1 FROM crossfill.request_deposits there
                         WHERE there.chain_id = $1 AND there.tx_hash = $2 AND there.log_index = $5 AND there.block_hash = $6)`,
    [...appliedKey(deposit), to.position, to.blockHash, to.blockNumber.toString(), to.timestamp.toString()],
  );
  if (result.rowCount === 1) return true;
  // A statement of its own: one that waited for the other run's row lock would read with a snapshot from before.
  const there = await db.query(
    `SELECT 1 FROM crossfill.request_deposits
      WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4 AND reorg IS NULL AND request_id = $5`,
    [deposit.chainId, deposit.txHash, to.position, to.blockHash, requestId],
  );
  return there.rowCount === 1;
}

/** Marks an applied deposit as reorged out, with the context the request record shows. */
export async function markDepositReorged(
  db: Queryable,
  deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "position" | "blockHash">,
  reorg: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `UPDATE crossfill.request_deposits SET reorg = $5 WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4`,
    [...appliedKey(deposit), JSON.stringify(reorg)],
  );
}
