import type { DepositFact, FillFact } from "./chainFacts.js";
import { type OnchainSchema, onchainSchemaIdent } from "./onchainSchemaIdent.js";
import type { Queryable } from "./queryable.js";
import { sameAppliedDepositSql } from "./requestDeposits.js";
import { factPosition } from "../src/domain/factPosition.js";

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
 * The order a deposit fact of table alias `alias` pays: the order of the request its `order_id` names when it names
 * a request (request and order ids are both Keccak-256 outputs: they never collide), else its `order_id` as is.
 */
export const depositOrderSql = (alias: string): string =>
  `coalesce((SELECT named.order_id FROM crossfill.requests named
              WHERE named.id = ${alias}.order_id AND named.parent_request_id IS NULL), ${alias}.order_id)`;

type DepositRow = {
  chain_id: string;
  tx_hash: string;
  log_index: string;
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
    position: factPosition(row.log_index),
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
 * The operator alert subject of a fill fact the reconcile held as short (it pays less than its request owes): one
 * alert per fact, which also keeps the fact out of `findUnappliedFills`.
 */
export function shortFillSubject(fill: Pick<FillFact, "chainId" | "txHash" | "position">): string {
  return `${fill.chainId}:${fill.txHash}:${fill.position}`;
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
    log_index: string;
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
      -- a fill held as short is an operator's now (shortFillSubject)
      WHERE NOT EXISTS (SELECT 1 FROM crossfill.operator_alerts h
                         WHERE h.kind = 'SHORT_FILL' AND h.subject = f.chain_id || ':' || f.tx_hash || ':' || f.log_index)
      ORDER BY f.timestamp, f.block_number, f.log_index
      LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    position: factPosition(row.log_index),
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
