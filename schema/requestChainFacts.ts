import { groupByRequest } from "./groupByRequest.js";
import type { Queryable } from "./queryable.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

/** A deposit applied to a request (origin chain). */
export type RequestDeposit = {
  requestId: string;
  chainId: number;
  txHash: string;
  logIndex: FactPosition;
  depositor: string;
  currency: string;
  amount: bigint;
  blockNumber: bigint;
  timestamp: number;
  /** What the transaction paid for gas, wei; null when it was not recorded (before migration 0062). */
  txFee: bigint | null;
  /** Why and when the deposit was found gone (reorged out, replaced); null while it stands. */
  reorg: Record<string, unknown> | null;
};

/** A fill applied to a request (destination chain). */
export type RequestFill = {
  requestId: string;
  chainId: number;
  txHash: string;
  logIndex: FactPosition;
  amount: bigint;
  blockNumber: bigint;
  timestamp: number;
  txFee: bigint | null;
  /** Recorded from the solver's receipt and not yet confirmed by the indexer (migration 0111). */
  provisional: boolean;
  /** Why the indexer's view differs from the receipt's (another fill indexed, none yet, reorged out); else null. */
  disagreement: Record<string, unknown> | null;
};

type FactRow = {
  request_id: string;
  chain_id: string;
  tx_hash: string;
  log_index: string;
  amount: string;
  block_number: string;
  timestamp: string;
  tx_fee: string | null;
};

/** What deposits and fills share: where on chain, how much, when. */
function factOf(row: FactRow): Omit<RequestFill, "provisional" | "disagreement"> {
  return {
    requestId: row.request_id,
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    logIndex: factPosition(row.log_index),
    amount: BigInt(row.amount),
    blockNumber: BigInt(row.block_number),
    timestamp: Number(row.timestamp),
    txFee: row.tx_fee === null ? null : BigInt(row.tx_fee),
  };
}

/** The deposits of many requests in one query, one list per id in the order given, each in chain order. */
export async function depositsOfRequests(db: Queryable, requestIds: readonly string[]): Promise<RequestDeposit[][]> {
  const { rows } = await db.query(
    `SELECT request_id, chain_id, tx_hash, log_index, depositor, currency, amount::text, block_number::text, timestamp, tx_fee::text, reorg
       FROM crossfill.request_deposits WHERE request_id = ANY($1) ORDER BY timestamp, block_number, log_index`,
    [requestIds],
  );
  return groupByRequest(
    requestIds,
    rows.map((row) => ({
      ...factOf(row as FactRow),
      depositor: row.depositor,
      currency: row.currency,
      reorg: row.reorg,
    })),
  );
}

/** The fills of many requests in one query, one list per id in the order given. */
export async function fillsOfRequests(db: Queryable, requestIds: readonly string[]): Promise<RequestFill[][]> {
  const { rows } = await db.query(
    `SELECT request_id, chain_id, tx_hash, log_index, amount::text, block_number::text, timestamp, tx_fee::text,
            provisional, disagreement
       FROM crossfill.request_fills WHERE request_id = ANY($1) ORDER BY timestamp, block_number, log_index`,
    [requestIds],
  );
  return groupByRequest(
    requestIds,
    rows.map((row) => ({ ...factOf(row as FactRow), provisional: row.provisional, disagreement: row.disagreement })),
  );
}
