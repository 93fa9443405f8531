import type {
  FieldCondition,
  FieldKey,
  RequestFilter,
  RequestListQuery,
  SearchTerm,
  SortKey,
} from "./requestFilter.js";
import type { RequestDeposit, RequestFill } from "./requestChainFacts.js";
import { type RequestRow, type StoredRequest, toStoredRequest } from "./requests.js";
import type { Queryable } from "./queryable.js";
import { storedAddress, storedAddressSql } from "./storedAddress.js";
import { factPosition } from "../src/domain/factPosition.js";

/** A request with everything the v3 and v2 records are built from. */
export type RequestView = StoredRequest & {
  apiKeyId: string | null;
  apiKeyName: string | null;
  apiKeyIntegrator: string | null;
  /** A child request's parent: the paid request whose quote a further deposit paid again; null otherwise. */
  parentRequestId: string | null;
  features: string[];
  /** `reorg`: the detection context when the deposit was reorged out or failed canonically (migration 0021). */
  deposits: Array<
    Omit<RequestDeposit, "requestId" | "timestamp"> & { timestamp: bigint; reorg: Record<string, unknown> | null }
  >;
  fills: Array<Omit<RequestFill, "requestId" | "timestamp"> & { timestamp: bigint }>;
  fillAttempts: Array<{ chainId: number; txHash: string; createdAt: Date }>;
  /**
   * The deposit address the request was quoted with (a child request shows its parent's), and the request that
   * regenerated it; null without one.
   */
  depositAddress: { address: string; type: "open" | "strict"; supersededByRequestId: string | null } | null;
  /** Refund legs (schema/refunds.ts); a hash once the refund transaction exists. */
  refunds: Array<{ chainId: number; currency: string; txHash: string | null; amount: bigint | null; status: string }>;
  /** The sort key of this row as Postgres renders it: the keyset of the next page. */
  sortValue: string;
};

/** Collects positional parameters while SQL text is assembled. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

const SORT_COLUMNS: Record<SortKey, { column: string; cast: string }> = {
  createdAt: { column: "r.created_at", cast: "timestamptz" },
  updatedAt: { column: "r.updated_at", cast: "timestamptz" },
  amountUsd: { column: "r.amount_usd", cast: "numeric" },
};

type FieldSql =
  | { kind: "columns"; columns: string[]; cast: "text" | "bigint"; address?: boolean }
  | { kind: "exists"; relation: (params: Params, values: string[] | null) => string }
  | { kind: "never" };

const fillHashes = (params: Params, values: string[] | null) => {
  const match = (alias: string) => (values ? ` AND ${alias}.tx_hash = ANY(${params.add(values, "text[]")})` : "");
  return `(EXISTS (SELECT 1 FROM crossfill.request_fills f WHERE f.request_id = r.id${match("f")})
        OR EXISTS (SELECT 1 FROM crossfill.fill_attempts a WHERE a.request_id = r.id${match("a")}))`;
};

/** How each recognised key reads a request; composite keys (user, chainId) check several columns. */
const FIELD_SQL: Record<FieldKey, FieldSql> = {
  id: { kind: "columns", columns: ["r.id"], cast: "text" },
  orderId: { kind: "columns", columns: ["r.order_id"], cast: "text" },
  // Addresses compare as stored (EVM hex case-blind, base58 exactly), each served by an index of 0420.
  user: { kind: "columns", columns: [storedAddressSql("r.user_address")], cast: "text", address: true },
  recipient: { kind: "columns", columns: [storedAddressSql("r.recipient")], cast: "text", address: true },
  // Deposit addresses are bech32 (lower case): compared lowered. A child request has its parent's.
  depositAddress: {
    kind: "exists",
    relation: (params, values) =>
      `EXISTS (SELECT 1 FROM crossfill.request_deposit_addresses da WHERE da.request_id = coalesce(r.parent_request_id, r.id)${
        values
          ? ` AND da.address = ANY(${params.add(
              values.map((value) => value.toLowerCase()),
              "text[]",
            )})`
          : ""
      })`,
  },
  originChainId: { kind: "columns", columns: ["r.origin_chain_id"], cast: "bigint" },
  destinationChainId: { kind: "columns", columns: ["r.destination_chain_id"], cast: "bigint" },
  chainId: { kind: "columns", columns: ["r.origin_chain_id", "r.destination_chain_id"], cast: "bigint" },
  currencyInChainId: { kind: "columns", columns: ["r.origin_chain_id"], cast: "bigint" },
  currencyOutChainId: { kind: "columns", columns: ["r.destination_chain_id"], cast: "bigint" },
  status: { kind: "columns", columns: ["r.status"], cast: "text" },
  failReason: { kind: "columns", columns: ["r.fail_reason"], cast: "text" },
  refundFailReason: { kind: "columns", columns: ["r.refund_fail_reason"], cast: "text" },
  apiKey: { kind: "columns", columns: ["r.api_key_id"], cast: "text" },
  requestType: { kind: "columns", columns: ["r.request_type"], cast: "text" },
  referrer: { kind: "columns", columns: ["r.referrer"], cast: "text" },
  currencyInAddress: { kind: "columns", columns: [storedAddressSql("r.origin_currency")], cast: "text", address: true },
  currencyOutAddress: {
    kind: "columns",
    columns: [storedAddressSql("r.destination_currency")],
    cast: "text",
    address: true,
  },
  currencyInSymbol: { kind: "columns", columns: ["r.currency_in_symbol"], cast: "text" },
  currencyOutSymbol: { kind: "columns", columns: ["r.currency_out_symbol"], cast: "text" },
  depositTxHash: {
    kind: "exists",
    relation: (params, values) =>
      `EXISTS (SELECT 1 FROM crossfill.request_deposits d WHERE d.request_id = r.id${values ? ` AND d.tx_hash = ANY(${params.add(values, "text[]")})` : ""})`,
  },
  fillTxHash: { kind: "exists", relation: fillHashes },
  refundTxHash: {
    kind: "exists",
    relation: (params, values) =>
      `EXISTS (SELECT 1 FROM crossfill.refunds x WHERE x.request_id = r.id AND ${values ? `x.tx_hash = ANY(${params.add(values, "text[]")})` : "x.tx_hash IS NOT NULL"})`,
  },
};

// With includeChildRequests, an id names a request and the children of its order.
const ID_WITH_CHILDREN: FieldSql = { kind: "columns", columns: ["r.id", "r.parent_request_id"], cast: "text" };

function conditionSql(condition: FieldCondition, params: Params, includeChildRequests: boolean): string {
  const spec = includeChildRequests && condition.field === "id" ? ID_WITH_CHILDREN : FIELD_SQL[condition.field];
  let sql: string;
  if (spec.kind === "never") {
    sql = condition.values === null ? "TRUE" : "FALSE";
  } else if (spec.kind === "exists") {
    const relation = spec.relation(params, condition.values === null ? null : condition.values.map(String));
    sql = condition.values === null ? `NOT ${relation}` : relation;
  } else if (condition.values === null) {
    sql = `(${spec.columns.map((column) => `${column} IS NULL`).join(" AND ")})`;
  } else {
    const values = condition.values.map((value) => (spec.address ? storedAddress(String(value)) : String(value)));
    // Plain comparisons keep the column indexes usable (one value as `=`, so an index on (column, sort key) also
    // gives the order); a negation also keeps rows whose column is null.
    if (condition.negate) {
      const list = params.add(values, `${spec.cast}[]`);
      return `(${spec.columns.map((column) => `(${column} IS NULL OR ${column} <> ALL(${list}))`).join(" AND ")})`;
    }
    const operand =
      values.length === 1 ? params.add(values[0], spec.cast) : `ANY(${params.add(values, `${spec.cast}[]`)})`;
    sql = `(${spec.columns.map((column) => `${column} = ${operand}`).join(" OR ")})`;
  }
  return condition.negate ? `NOT ${sql}` : sql;
}

/**
 * `term`: one search over request id, wallets, deposit address and every transaction hash, as one id set. A term some
 * family reads as a transaction hash is looked up as one (and as a request id, which has the EVM hash's shape).
 */
function termSql(term: SearchTerm, params: Params): string {
  const value = params.add(term.transactionHash ?? term.address ?? storedAddress(term.text), "text");
  const sources = term.transactionHash
    ? [
        `SELECT id FROM crossfill.requests WHERE id = ${value}`,
        `SELECT request_id FROM crossfill.request_deposits WHERE tx_hash = ${value}`,
        `SELECT request_id FROM crossfill.request_fills WHERE tx_hash = ${value}`,
        `SELECT request_id FROM crossfill.fill_attempts WHERE tx_hash = ${value}`,
        `SELECT request_id FROM crossfill.refunds WHERE tx_hash = ${value}`,
      ]
    : [
        `SELECT id FROM crossfill.requests WHERE ${storedAddressSql("user_address")} = ${value}`,
        `SELECT id FROM crossfill.requests WHERE ${storedAddressSql("recipient")} = ${value}`,
        `SELECT request_id FROM crossfill.request_deposit_addresses WHERE address = ${value}`,
        `SELECT c.id FROM crossfill.requests c JOIN crossfill.request_deposit_addresses da ON da.request_id = c.parent_request_id
          WHERE da.address = ${value}`,
      ];
  return `r.id IN (${sources.join(" UNION ")})`;
}

/** The WHERE conditions of a filter over `crossfill.requests r` (also the GROUP BY queries of schema/requestStats.ts). */
export function whereSql(filter: RequestFilter, params: Params): string[] {
  const children = filter.includeChildRequests;
  const where = filter.conditions.map((condition) => conditionSql(condition, params, children));
  if (filter.groups.length > 0) {
    where.push(
      `(${filter.groups.map((group) => `(${group.map((condition) => conditionSql(condition, params, children)).join(" AND ")})`).join(" OR ")})`,
    );
  }
  if (filter.term !== undefined) where.push(termSql(filter.term, params));
  // An array, not a subquery join: the planner then walks requests_api_key_idx once per key.
  if (filter.integrator !== undefined)
    where.push(
      `r.api_key_id = ANY(ARRAY(SELECT k.id FROM crossfill.api_keys k WHERE k.integrator = ${params.add(filter.integrator, "text")}))`,
    );
  const { createdAt, originBlock, amountUsd, appFeesUsd, fillTimeSeconds } = filter;
  if (createdAt.min !== undefined) where.push(`r.created_at >= to_timestamp(${params.add(createdAt.min, "bigint")})`);
  if (createdAt.max !== undefined)
    where.push(`r.created_at < to_timestamp(${params.add(createdAt.max + 1, "bigint")})`);
  // deposit_block and fill_seconds are kept by triggers on the deposit and fill tables (migration 0013).
  if (originBlock.min !== undefined)
    where.push(`r.deposit_block >= ${params.add(originBlock.min.toString(), "bigint")}`);
  if (originBlock.max !== undefined)
    where.push(`r.deposit_block <= ${params.add(originBlock.max.toString(), "bigint")}`);
  if (amountUsd.min !== undefined) where.push(`r.amount_usd >= ${params.add(amountUsd.min, "numeric")}`);
  if (amountUsd.max !== undefined) where.push(`r.amount_usd <= ${params.add(amountUsd.max, "numeric")}`);
  if (appFeesUsd.min !== undefined) where.push(`r.app_fees_usd >= ${params.add(appFeesUsd.min, "numeric")}`);
  if (appFeesUsd.max !== undefined) where.push(`r.app_fees_usd <= ${params.add(appFeesUsd.max, "numeric")}`);
  if (fillTimeSeconds.min !== undefined) where.push(`r.fill_seconds >= ${params.add(fillTimeSeconds.min, "bigint")}`);
  if (fillTimeSeconds.max !== undefined) where.push(`r.fill_seconds <= ${params.add(fillTimeSeconds.max, "bigint")}`);
  if (filter.features.length > 0) where.push(`r.features @> ${params.add(filter.features, "text[]")}`);
  return where;
}

/**
 * A listing's conditions: the filter's, and no child requests unless it asks for them. (Analytics count children
 * as the requests they are: requestStats uses whereSql alone.)
 */
export function listingWhereSql(filter: RequestFilter, params: Params): string[] {
  const where = whereSql(filter, params);
  return filter.includeChildRequests ? where : [...where, "r.parent_request_id IS NULL"];
}

type ViewRow = RequestRow & {
  parent_request_id: string | null;
  api_key_id: string | null;
  api_key_name: string | null;
  api_key_integrator: string | null;
  features: string[];
  sort_value: string;
  deposits: Array<{
    chain_id: number;
    tx_hash: string;
    log_index: string;
    depositor: string;
    currency: string;
    amount: string;
    block_number: string;
    timestamp: string;
    tx_fee: string | null;
    reorg: Record<string, unknown> | null;
  }>;
  fills: Array<{
    chain_id: number;
    tx_hash: string;
    log_index: string;
    amount: string;
    block_number: string;
    timestamp: string;
    tx_fee: string | null;
    provisional: boolean;
    disagreement: Record<string, unknown> | null;
  }>;
  attempts: Array<{ chain_id: number; tx_hash: string; created_at: string }>;
  refunds: Array<{ chain_id: number; currency: string; tx_hash: string | null; amount: string | null; status: string }>;
  deposit_address: { address: string; type: "open" | "strict"; superseded_by: string | null } | null;
};

function toView(row: ViewRow): RequestView {
  return {
    ...toStoredRequest(row),
    apiKeyId: row.api_key_id,
    apiKeyName: row.api_key_name,
    apiKeyIntegrator: row.api_key_integrator,
    parentRequestId: row.parent_request_id,
    features: row.features,
    sortValue: row.sort_value,
    deposits: row.deposits.map((d) => ({
      chainId: Number(d.chain_id),
      txHash: d.tx_hash,
      logIndex: factPosition(d.log_index),
      depositor: d.depositor,
      currency: d.currency,
      amount: BigInt(d.amount),
      blockNumber: BigInt(d.block_number),
      timestamp: BigInt(d.timestamp),
      txFee: d.tx_fee === null ? null : BigInt(d.tx_fee),
      reorg: d.reorg,
    })),
    fills: row.fills.map((f) => ({
      chainId: Number(f.chain_id),
      txHash: f.tx_hash,
      logIndex: factPosition(f.log_index),
      amount: BigInt(f.amount),
      blockNumber: BigInt(f.block_number),
      timestamp: BigInt(f.timestamp),
      txFee: f.tx_fee === null ? null : BigInt(f.tx_fee),
      provisional: f.provisional,
      disagreement: f.disagreement,
    })),
    fillAttempts: row.attempts.map((a) => ({
      chainId: Number(a.chain_id),
      txHash: a.tx_hash,
      createdAt: new Date(a.created_at),
    })),
    depositAddress: row.deposit_address && {
      address: row.deposit_address.address,
      type: row.deposit_address.type,
      supersededByRequestId: row.deposit_address.superseded_by,
    },
    refunds: row.refunds.map((x) => ({
      chainId: Number(x.chain_id),
      currency: x.currency,
      txHash: x.tx_hash,
      amount: x.amount === null ? null : BigInt(x.amount),
      status: x.status,
    })),
  };
}

// Numeric columns go out as text inside JSON so 78-digit amounts (and positions beyond 2^53) survive.
const HYDRATE = `
  coalesce((SELECT json_agg(json_build_object('chain_id', d.chain_id, 'tx_hash', d.tx_hash, 'log_index', d.log_index::text,
      'depositor', d.depositor, 'currency', d.currency, 'amount', d.amount::text, 'block_number', d.block_number::text,
      'timestamp', d.timestamp::text, 'tx_fee', d.tx_fee::text, 'reorg', d.reorg) ORDER BY d.timestamp, d.block_number, d.log_index)
    FROM crossfill.request_deposits d WHERE d.request_id = r.id), '[]') AS deposits,
  coalesce((SELECT json_agg(json_build_object('chain_id', f.chain_id, 'tx_hash', f.tx_hash, 'log_index', f.log_index::text,
      'amount', f.amount::text, 'block_number', f.block_number::text, 'timestamp', f.timestamp::text, 'tx_fee', f.tx_fee::text,
      'provisional', f.provisional, 'disagreement', f.disagreement) ORDER BY f.timestamp, f.log_index)
    FROM crossfill.request_fills f WHERE f.request_id = r.id), '[]') AS fills,
  coalesce((SELECT json_agg(json_build_object('chain_id', a.chain_id, 'tx_hash', a.tx_hash, 'created_at', a.created_at))
    FROM crossfill.fill_attempts a WHERE a.request_id = r.id), '[]') AS attempts,
  coalesce((SELECT json_agg(json_build_object('chain_id', x.chain_id, 'currency', x.currency, 'tx_hash', x.tx_hash, 'amount', x.amount::text, 'status', x.status) ORDER BY x.id)
    FROM crossfill.refunds x WHERE x.request_id = r.id), '[]') AS refunds,
  (SELECT json_build_object('address', da.address, 'type', da.type, 'superseded_by', da.superseded_by)
     FROM crossfill.request_deposit_addresses da WHERE da.request_id = coalesce(r.parent_request_id, r.id)) AS deposit_address`;

/** What a view row selects of `crossfill.requests r` joined to its key `k`, with `sortColumn` as its sort value. */
const viewColumns = (sortColumn: string) =>
  `r.*, ${sortColumn}::text AS sort_value, k.name AS api_key_name, k.integrator AS api_key_integrator, ${HYDRATE}`;

/** The SQL of one page (exported for EXPLAIN in the benchmark). */
export function requestPageSql(query: RequestListQuery): { text: string; values: unknown[] } {
  const params = new Params();
  const where = listingWhereSql(query.filter, params);
  const sort = SORT_COLUMNS[query.sortBy];
  const direction = query.sortDirection === "asc" ? "ASC" : "DESC";
  if (query.after) {
    const comparison = query.sortDirection === "asc" ? ">" : "<";
    where.push(
      `(${sort.column}, r.id) ${comparison} (${params.add(query.after.value, sort.cast)}, ${params.add(query.after.id, "text")})`,
    );
  }
  const limit = params.add(query.limit, "int");
  const text = `
    WITH page AS (
      SELECT r.id FROM crossfill.requests r
       ${where.length ? `WHERE ${where.join("\n         AND ")}` : ""}
       ORDER BY ${sort.column} ${direction}, r.id ${direction}
       LIMIT ${limit})
    SELECT ${viewColumns(sort.column)}
      FROM page JOIN crossfill.requests r ON r.id = page.id
      LEFT JOIN crossfill.api_keys k ON k.id = r.api_key_id
     ORDER BY ${sort.column} ${direction}, r.id ${direction}`;
  return { text, values: params.values };
}

/** The plan Postgres runs for one page (EXPLAIN ANALYZE, text), for the benchmark's record of query plans. */
export async function explainRequestPage(db: Queryable, query: RequestListQuery): Promise<string> {
  return explainSql(db, requestPageSql(query));
}

/** EXPLAIN ANALYZE of one statement, as text (also the total's plan, schema/countRequests.ts). */
export async function explainSql(db: Queryable, sql: { text: string; values: unknown[] }): Promise<string> {
  const { rows } = await db.query<{ "QUERY PLAN": string }>(
    `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${sql.text}`,
    sql.values,
  );
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

/**
 * Requests by id, child requests too: a view by id is never a listing, so a second payment's request (refunded as
 * DOUBLE_SPEND) is shown like any other. Unknown ids are absent.
 */
export async function requestViewsByIds(db: Queryable, ids: readonly string[]): Promise<RequestView[]> {
  const params = new Params();
  const { rows } = await db.query<ViewRow>(
    `SELECT ${viewColumns(SORT_COLUMNS.createdAt.column)}
       FROM crossfill.requests r LEFT JOIN crossfill.api_keys k ON k.id = r.api_key_id
      WHERE r.id = ANY(${params.add([...ids], "text[]")})`,
    params.values,
  );
  return rows.map(toView);
}

/** One page of requests matching the query, in the query's order. */
export async function listRequestViews(db: Queryable, query: RequestListQuery): Promise<RequestView[]> {
  const { text, values } = requestPageSql(query);
  const { rows } = await db.query<ViewRow>(text, values);
  return rows.map(toView);
}
