/**
 * Ponder tables: EVM chain facts, one row per log, nothing derived.
 *
 * Ponder creates them in its build schema (`ponder start --schema <build id>`) and publishes them as plain views
 * in the stable views schema (default `crossfill_onchain`); everything else reads only those views.
 * Column names become snake_case in Postgres (`orderId` → `order_id`); `t.bigint()` is `numeric(78,0)`,
 * `t.hex()` is lowercase `text`.
 */
import { index, onchainTable } from "ponder";

/** `Depository.Deposit(orderId, depositor, currency, amount)`; currency 0x0 is the native currency. */
export const deposit = onchainTable(
  "deposit",
  (t) => ({
    /** `<chainId>:<txHash>:<logIndex>` */
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    orderId: t.hex().notNull(),
    depositor: t.hex().notNull(),
    currency: t.hex().notNull(),
    amount: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    blockHash: t.hex().notNull(),
    /** block timestamp, seconds */
    timestamp: t.bigint().notNull(),
    /** the transaction's sender (may differ from `depositor` when a contract deposits) */
    txFrom: t.hex().notNull(),
    /** what the transaction paid for gas, wei: receipt gasUsed × effectiveGasPrice */
    txFee: t.bigint().notNull(),
  }),
  (table) => ({
    orderIdIdx: index("deposit_order_id_idx").on(table.orderId),
    txIdx: index("deposit_chain_tx_idx").on(table.chainId, table.txHash),
    // the reconcile's frequent pass reads the latest deposits only (jobs/reconcile.ts)
    timestampIdx: index("deposit_timestamp_idx").on(table.timestamp),
  }),
);

/** `Receiver.Fill(requestId, solver, currency, recipient, amount)` */
export const fill = onchainTable(
  "fill",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    requestId: t.hex().notNull(),
    solver: t.hex().notNull(),
    currency: t.hex().notNull(),
    recipient: t.hex().notNull(),
    amount: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    blockHash: t.hex().notNull(),
    timestamp: t.bigint().notNull(),
    txFrom: t.hex().notNull(),
    /** what the transaction paid for gas, wei: receipt gasUsed × effectiveGasPrice */
    txFee: t.bigint().notNull(),
  }),
  (table) => ({
    requestIdIdx: index("fill_request_id_idx").on(table.requestId),
    txIdx: index("fill_chain_tx_idx").on(table.chainId, table.txHash),
    timestampIdx: index("fill_timestamp_idx").on(table.timestamp),
  }),
);

/** `Depository.Withdrawal(orderId, currency, to, amount)`: refunds (and other payouts) from the Depository. */
export const withdrawal = onchainTable(
  "withdrawal",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    orderId: t.hex().notNull(),
    currency: t.hex().notNull(),
    /** the event's `to` */
    recipient: t.hex().notNull(),
    amount: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    blockHash: t.hex().notNull(),
    timestamp: t.bigint().notNull(),
    txFrom: t.hex().notNull(),
  }),
  (table) => ({
    orderIdIdx: index("withdrawal_order_id_idx").on(table.orderId),
    txIdx: index("withdrawal_chain_tx_idx").on(table.chainId, table.txHash),
  }),
);
