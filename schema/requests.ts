import type pg from "pg";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import { type QuotedDepositAddress, insertRequestDepositAddress } from "./depositAddresses.js";
import { withTransaction } from "./withTransaction.js";
import type { Queryable } from "./queryable.js";

export type NewRequest = {
  id: string;
  orderId: string;
  requestType: string;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  user: string;
  recipient: string;
  refundTo: string;
  originChainId: number;
  destinationChainId: number;
  originCurrency: string;
  destinationCurrency: string;
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  slippageBps: bigint;
  deadline: Date;
  referrer: string | undefined;
  calls: Array<{ to: string; value: string; data: string }>;
  orderData: unknown;
  quote: unknown;
  /** The API key the quote was made with; absent for keyless quotes. */
  apiKeyId?: string | null;
  /** How far a deposit after the deadline may be re-priced and still filled; absent: late deposits are refunded. */
  latePaymentSlippageBps?: bigint;
  /** `useDepositAddress`: the address the user pays (Bitcoin origin), recorded with the request. */
  depositAddress?: QuotedDepositAddress;
};

export type StoredRequest = Omit<NewRequest, "referrer" | "refundTo" | "latePaymentSlippageBps" | "depositAddress"> & {
  status: RequestStatus;
  latePaymentSlippageBps: bigint | null;
  /** What the applied deposit entitles the recipient to; set when the request goes pending. */
  fillAmount: bigint | null;
  referrer: string | null;
  refundTo: string | null;
  failReason: string | null;
  refundFailReason: string | null;
  failedTransaction: FailedTransaction | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * A quoted request starts as `waiting`; its first status event is written with it, and its deposit address, if any,
 * in the same transaction.
 */
export async function insertRequest(pool: pg.Pool, request: NewRequest): Promise<void> {
  const { depositAddress } = request;
  if (!depositAddress) return insertRequestRows(pool, [request]);
  await withTransaction(pool, async (client) => {
    await insertRequestRows(client, [request]);
    await insertRequestDepositAddress(client, request.id, depositAddress);
  });
}

const REQUEST_COLUMNS = `id, order_id, status, request_type, trade_type, user_address, recipient, refund_to,
  origin_chain_id, destination_chain_id, origin_currency, destination_currency, amount_in, amount_out,
  minimum_amount_out, slippage_bps, deadline, referrer, calls, order_data, quote, api_key_id, late_payment_slippage_bps`;

const requestValues = (request: NewRequest): unknown[] => [
  request.id,
  request.orderId,
  "waiting",
  request.requestType,
  request.tradeType,
  request.user,
  request.recipient,
  request.refundTo,
  request.originChainId,
  request.destinationChainId,
  request.originCurrency,
  request.destinationCurrency,
  request.amountIn.toString(),
  request.amountOut.toString(),
  request.minimumAmountOut.toString(),
  Number(request.slippageBps),
  request.deadline,
  request.referrer ?? null,
  JSON.stringify(request.calls),
  JSON.stringify(request.orderData),
  JSON.stringify(request.quote),
  request.apiKeyId ?? null,
  request.latePaymentSlippageBps === undefined ? null : Number(request.latePaymentSlippageBps),
];

export const MAX_PREPARED_BATCH = 16;

/** Quoted requests (without deposit addresses) and their first status events, in one statement: all or none. */
export async function insertRequestRows(db: Queryable, requests: readonly NewRequest[]): Promise<void> {
  const params: unknown[] = [];
  const tuples = requests.map((request) => {
    const values = requestValues(request);
    const first = params.length + 1;
    params.push(...values);
    return `(${values.map((_, index) => `$${first + index}`).join(", ")})`;
  });
  await db.query({
    // Planned once per connection and batch size; sizes above 16 are planned each time, as one such plan costs
    // a backend about 0.2 MB (64 sizes: 12 MB a connection).
    name: requests.length <= MAX_PREPARED_BATCH ? `crossfill_insert_requests_${requests.length}` : undefined,
    text: `WITH inserted AS (INSERT INTO crossfill.requests (${REQUEST_COLUMNS}) VALUES ${tuples.join(", ")} RETURNING id)
     INSERT INTO crossfill.status_events (request_id, from_status, to_status) SELECT id, NULL, 'waiting' FROM inserted`,
    values: params,
  });
}

export type RequestRow = {
  id: string;
  order_id: string;
  status: RequestStatus;
  request_type: string;
  trade_type: "EXACT_INPUT" | "EXACT_OUTPUT";
  user_address: string;
  recipient: string;
  refund_to: string | null;
  origin_chain_id: string;
  destination_chain_id: string;
  origin_currency: string;
  destination_currency: string;
  amount_in: string;
  amount_out: string;
  minimum_amount_out: string;
  slippage_bps: number;
  deadline: Date;
  referrer: string | null;
  calls: Array<{ to: string; value: string; data: string }>;
  order_data: unknown;
  quote: unknown;
  fail_reason: string | null;
  refund_fail_reason: string | null;
  late_payment_slippage_bps: number | null;
  api_key_id: string | null;
  fill_amount: string | null;
  failed_tx_hash: string | null;
  failed_tx_block_number: string | null;
  failed_tx_timestamp: string | null;
  failed_tx_fee: string | null;
  failed_call_data: FailedTransaction["call"] | null;
  created_at: Date;
  updated_at: Date;
};

export function toStoredRequest(row: RequestRow): StoredRequest {
  return {
    id: row.id,
    orderId: row.order_id,
    status: row.status,
    requestType: row.request_type,
    tradeType: row.trade_type,
    user: row.user_address,
    recipient: row.recipient,
    refundTo: row.refund_to,
    originChainId: Number(row.origin_chain_id),
    destinationChainId: Number(row.destination_chain_id),
    originCurrency: row.origin_currency,
    destinationCurrency: row.destination_currency,
    amountIn: BigInt(row.amount_in),
    amountOut: BigInt(row.amount_out),
    minimumAmountOut: BigInt(row.minimum_amount_out),
    slippageBps: BigInt(row.slippage_bps),
    deadline: row.deadline,
    referrer: row.referrer,
    calls: row.calls,
    orderData: row.order_data,
    quote: row.quote,
    apiKeyId: row.api_key_id,
    failReason: row.fail_reason,
    refundFailReason: row.refund_fail_reason,
    latePaymentSlippageBps: row.late_payment_slippage_bps === null ? null : BigInt(row.late_payment_slippage_bps),
    fillAmount: row.fill_amount === null ? null : BigInt(row.fill_amount),
    failedTransaction: row.failed_call_data && {
      txHash: row.failed_tx_hash,
      blockNumber: row.failed_tx_block_number === null ? null : BigInt(row.failed_tx_block_number),
      timestamp: row.failed_tx_timestamp === null ? null : BigInt(row.failed_tx_timestamp),
      fee: row.failed_tx_fee === null ? null : BigInt(row.failed_tx_fee),
      call: row.failed_call_data,
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function getRequest(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredRequest | undefined> {
  const { rows } = await db.query<RequestRow>(
    `SELECT * FROM crossfill.requests WHERE id = $1${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id],
  );
  return rows[0] && toStoredRequest(rows[0]);
}

/**
 * Locks these requests (FOR UPDATE) and reads them, in one statement: in id order, so two transactions locking
 * overlapping sets this way never deadlock. Missing ids are left out.
 */
export async function lockRequests(db: Queryable, ids: readonly string[]): Promise<StoredRequest[]> {
  const { rows } = await db.query<RequestRow>(
    "SELECT * FROM crossfill.requests WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE",
    [[...ids]],
  );
  return rows.map(toStoredRequest);
}

/**
 * The child request a further deposit for `parentId`'s order becomes: the parent's quote, the depositor as its
 * user (the wallet that paid follows it), the deposited amount in, nothing out, `waiting` until reconcile fails it as DOUBLE_SPEND in the same transaction.
 * Returns false when it exists already.
 */
export async function insertChildRequest(
  db: Queryable,
  child: { id: string; parentId: string; depositor: string; amountIn: bigint },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH inserted AS (
       INSERT INTO crossfill.requests (id, order_id, parent_request_id, status, request_type, trade_type, user_address,
         recipient, refund_to, origin_chain_id, destination_chain_id, origin_currency, destination_currency, amount_in,
         amount_out, minimum_amount_out, slippage_bps, deadline, referrer, calls, order_data, quote, api_key_id,
         late_payment_slippage_bps)
       SELECT $1, order_id, id, 'waiting', request_type, trade_type, $4, recipient, refund_to, origin_chain_id,
         destination_chain_id, origin_currency, destination_currency, $3, 0, 0, slippage_bps, deadline, referrer, calls,
         order_data, quote, api_key_id, late_payment_slippage_bps
         FROM crossfill.requests WHERE id = $2
       ON CONFLICT (id) DO NOTHING
       RETURNING id)
     INSERT INTO crossfill.status_events (request_id, from_status, to_status, details)
     SELECT id, NULL, 'waiting', jsonb_build_object('parentRequestId', $2::text) FROM inserted`,
    [child.id, child.parentId, child.amountIn.toString(), child.depositor],
  );
  return rowCount === 1;
}
