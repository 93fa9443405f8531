/**
 * What chains record, in the shapes the chain adapters read and the indexers write: deposits, fills and withdrawals
 * where they were mined, and a request's applied deposit. `schema/chainFacts.ts` stores and reads them.
 */
import type { FactPosition } from "../domain/factPosition.js";

export type DepositFact = {
  chainId: number;
  txHash: string;
  /** Where in its transaction or block: an EVM log's index in its block, a Bitcoin output's vout (`factPosition`). */
  position: FactPosition;
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
  position: FactPosition;
  requestId: string;
  currency: string;
  recipient: string;
  amount: bigint;
  blockNumber: bigint;
  blockHash: string;
  timestamp: bigint;
  txFee: bigint | null;
};

/** What every fact has: where on chain, in what, how much. */
export type LocatedFact = {
  chainId: number;
  txHash: string;
  position: FactPosition;
  currency: string;
  amount: bigint;
  blockNumber: bigint;
  blockHash: string;
  timestamp: bigint;
};

/** A payout from the depository (a refund), as Ponder's `withdrawal` records it. */
export type WithdrawalFact = LocatedFact & { orderId: string; recipient: string };

/** A deposit as applied to its request (`crossfill.request_deposits`). */
export type AppliedDeposit = {
  chainId: number;
  txHash: string;
  position: FactPosition;
  blockHash: string;
  depositor: string;
  currency: string;
  amount: bigint;
  blockNumber: bigint;
};

/**
 * The `order_id` of a deposit that names no order (a Bitcoin payment to the depository without a valid OP_RETURN):
 * it is recorded so a refund can find it, and matches no request.
 */
export const NO_ORDER = "";

/**
 * The `block_hash` of a deposit seen in the mempool, not yet in a block (Bitcoin): its `block_number` is 0 and its
 * `timestamp` when it was first seen. The block's fact replaces it once mined.
 */
export const MEMPOOL_BLOCK_HASH = "";
