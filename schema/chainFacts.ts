import type pg from "pg";
import type { Queryable } from "./requests.js";

/** Where Ponder publishes its views (`ponder start --views-schema`). */
export type OnchainSchema = string;

export type DepositFact = {
  chainId: number;
  txHash: string;
  logIndex: number;
  orderId: string;
  depositor: string;
  currency: string;
  amount: bigint;
  blockNumber: bigint;
  blockHash: string;
  timestamp: bigint;
  txFrom: string;
  /** What the transaction paid for gas, wei; null where it was not recorded. */
  txFee: bigint | null;
};

export type FillFact = {
  chainId: number;
  txHash: string;
  logIndex: number;
  requestId: string;
  currency: string;
  recipient: string;
  amount: bigint;
  blockNumber: bigint;
  timestamp: bigint;
  txFee: bigint | null;
};

/** The views schema as a quoted SQL identifier; anything but a plain lowercase name is refused. */
export function onchainSchemaIdent(name: OnchainSchema): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return `"${name}"`;
}

/**
 * Every deposit fact, from Ponder's view and from the app's own fact table (manual index, pollers), as one relation: a deposit known to
 * both is one row, with the fee whichever source recorded it.
 */
function allDeposits(onchain: OnchainSchema): string {
  const columns =
    "chain_id, tx_hash, log_index, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from";
  return `(SELECT ${columns}, max(tx_fee) AS tx_fee
             FROM (SELECT chain_id::bigint, tx_hash, log_index, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from, tx_fee
                     FROM ${onchainSchemaIdent(onchain)}.deposit
                   UNION ALL
                   SELECT ${columns}, tx_fee FROM crossfill.deposit_facts) facts
            GROUP BY ${columns})`;
}

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

/** Deposits for known orders that have not been applied to their request yet, oldest first. */
export async function findUnappliedDeposits(
  db: Queryable,
  onchain: OnchainSchema,
  limit = 200,
): Promise<Array<DepositFact & { requestId: string }>> {
  const { rows } = await db.query<DepositRow & { request_id: string }>(
    `SELECT d.*, r.id AS request_id
       FROM ${allDeposits(onchain)} d
       JOIN crossfill.requests r ON r.order_id = d.order_id
      WHERE NOT EXISTS (SELECT 1 FROM crossfill.request_deposits a
                         WHERE a.chain_id = d.chain_id AND a.tx_hash = d.tx_hash AND a.log_index = d.log_index
                           AND a.block_hash = d.block_hash)
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

/** Fills seen on-chain (by Ponder or a poller) for known requests that have not been applied yet. */
export async function findUnappliedFills(db: Queryable, onchain: OnchainSchema, limit = 200): Promise<FillFact[]> {
  const { rows } = await db.query<{
    chain_id: string;
    tx_hash: string;
    log_index: number;
    request_id: string;
    currency: string;
    recipient: string;
    amount: string;
    block_number: string;
    timestamp: string;
    tx_fee: string | null;
  }>(
    `SELECT f.chain_id, f.tx_hash, f.log_index, f.request_id, f.currency, f.recipient, f.amount, f.block_number, f.timestamp, f.tx_fee
       FROM (SELECT chain_id::bigint, tx_hash, log_index, request_id, currency, recipient, amount, block_number, timestamp, tx_fee
               FROM ${onchainSchemaIdent(onchain)}.fill
             UNION ALL
             SELECT chain_id, tx_hash, log_index, request_id, currency, recipient, amount, block_number, timestamp, tx_fee
               FROM crossfill.fill_facts) f
       JOIN crossfill.requests r ON r.id = f.request_id
      WHERE NOT EXISTS (SELECT 1 FROM crossfill.request_fills a
                         WHERE a.chain_id = f.chain_id AND a.tx_hash = f.tx_hash AND a.log_index = f.log_index)
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
 * Records deposit facts as given (a poller's chain has its own encodings of hashes and addresses); repeats are no-ops.
 * Returns how many were new.
 */
export async function insertDepositFacts(
  db: Queryable,
  facts: readonly DepositFact[],
  source: string,
): Promise<number> {
  const result = await db.query(
    `INSERT INTO crossfill.deposit_facts (chain_id, tx_hash, log_index, order_id, depositor, currency, amount, block_number,
       block_hash, timestamp, tx_from, source, tx_fee)
     SELECT chain_id, tx_hash, log_index, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from, $12, tx_fee
       FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::bigint[],
                   $9::text[], $10::bigint[], $11::text[], $13::numeric[])
         AS f (chain_id, tx_hash, log_index, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from, tx_fee)
     ON CONFLICT DO NOTHING`,
    [
      facts.map((fact) => fact.chainId),
      facts.map((fact) => fact.txHash),
      facts.map((fact) => fact.logIndex),
      facts.map((fact) => fact.orderId),
      facts.map((fact) => fact.depositor),
      facts.map((fact) => fact.currency),
      facts.map((fact) => fact.amount.toString()),
      facts.map((fact) => fact.blockNumber.toString()),
      facts.map((fact) => fact.blockHash),
      facts.map((fact) => fact.timestamp.toString()),
      facts.map((fact) => fact.txFrom),
      source,
      facts.map((fact) => fact.txFee?.toString() ?? null),
    ],
  );
  return result.rowCount ?? 0;
}

/** A fill as a poller records it: with its block's hash, so a reorg can take it back. */
export type PolledFillFact = FillFact & { blockHash: string };

/** Records fills a poller read; repeats are no-ops. */
export async function insertFillFacts(db: Queryable, facts: readonly PolledFillFact[]): Promise<void> {
  await db.query(
    `INSERT INTO crossfill.fill_facts (chain_id, tx_hash, log_index, request_id, currency, recipient, amount, block_number,
       block_hash, timestamp, tx_fee)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                          $8::bigint[], $9::text[], $10::bigint[], $11::numeric[])
     ON CONFLICT DO NOTHING`,
    [
      facts.map((fact) => fact.chainId),
      facts.map((fact) => fact.txHash),
      facts.map((fact) => fact.logIndex),
      facts.map((fact) => fact.requestId),
      facts.map((fact) => fact.currency),
      facts.map((fact) => fact.recipient),
      facts.map((fact) => fact.amount.toString()),
      facts.map((fact) => fact.blockNumber.toString()),
      facts.map((fact) => fact.blockHash),
      facts.map((fact) => fact.timestamp.toString()),
      facts.map((fact) => fact.txFee?.toString() ?? null),
    ],
  );
}

/** A payout from the depository (a refund), as Ponder's `withdrawal` records it. */
export type WithdrawalFact = {
  chainId: number;
  txHash: string;
  logIndex: number;
  orderId: string;
  currency: string;
  recipient: string;
  amount: bigint;
  blockNumber: bigint;
  blockHash: string;
  timestamp: bigint;
};

/** Records withdrawals a poller read; repeats are no-ops. */
export async function insertWithdrawalFacts(db: Queryable, facts: readonly WithdrawalFact[]): Promise<void> {
  await db.query(
    `INSERT INTO crossfill.withdrawal_facts (chain_id, tx_hash, log_index, order_id, currency, recipient, amount,
       block_number, block_hash, timestamp)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::numeric[],
                          $8::bigint[], $9::text[], $10::bigint[])
     ON CONFLICT DO NOTHING`,
    [
      facts.map((fact) => fact.chainId),
      facts.map((fact) => fact.txHash),
      facts.map((fact) => fact.logIndex),
      facts.map((fact) => fact.orderId),
      facts.map((fact) => fact.currency),
      facts.map((fact) => fact.recipient),
      facts.map((fact) => fact.amount.toString()),
      facts.map((fact) => fact.blockNumber.toString()),
      facts.map((fact) => fact.blockHash),
      facts.map((fact) => fact.timestamp.toString()),
    ],
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
  const result = await client.query(
    `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash, tx_fee)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
    [
      fact.chainId,
      fact.txHash,
      fact.logIndex,
      fact.requestId,
      fact.depositor,
      fact.currency,
      fact.amount.toString(),
      fact.blockNumber.toString(),
      fact.timestamp.toString(),
      fact.blockHash,
      fact.txFee?.toString() ?? null,
    ],
  );
  return result.rowCount === 1;
}

export async function recordRequestFill(client: pg.PoolClient, fact: FillFact): Promise<boolean> {
  const result = await client.query(
    `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp, tx_fee)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
    [
      fact.chainId,
      fact.txHash,
      fact.logIndex,
      fact.requestId,
      fact.amount.toString(),
      fact.blockNumber.toString(),
      fact.timestamp.toString(),
      fact.txFee?.toString() ?? null,
    ],
  );
  return result.rowCount === 1;
}

export type AppliedDeposit = {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockHash: string;
  depositor: string;
  currency: string;
  amount: bigint;
  blockNumber: bigint;
};

/** Deposits applied to a request and not reorged out, first first. */
export async function listRequestDeposits(db: Queryable, requestId: string): Promise<AppliedDeposit[]> {
  const { rows } = await db.query<{
    chain_id: string;
    tx_hash: string;
    log_index: number;
    block_hash: string;
    depositor: string;
    currency: string;
    amount: string;
    block_number: string;
  }>(
    `SELECT chain_id, tx_hash, log_index, block_hash, depositor, currency, amount, block_number FROM crossfill.request_deposits
      WHERE request_id = $1 AND reorg IS NULL ORDER BY timestamp, block_number, log_index`,
    [requestId],
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    blockHash: row.block_hash,
    depositor: row.depositor,
    currency: row.currency,
    amount: BigInt(row.amount),
    blockNumber: BigInt(row.block_number),
  }));
}

/** Marks an applied deposit as reorged out, with the context the request record shows. */
export async function markDepositReorged(
  db: Queryable,
  deposit: Pick<AppliedDeposit, "chainId" | "txHash" | "logIndex" | "blockHash">,
  reorg: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `UPDATE crossfill.request_deposits SET reorg = $5 WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $4`,
    [deposit.chainId, deposit.txHash, deposit.logIndex, deposit.blockHash, JSON.stringify(reorg)],
  );
}
