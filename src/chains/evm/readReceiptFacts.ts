import { type Hex, type TransactionReceipt, TransactionReceiptNotFoundError } from "viem";
import { NotFoundError } from "../../domain/errors.js";
import type { EvmChainClient } from "./evmChainClient.js";

/**
 * What `read` finds in a mined transaction's receipt, given its block's time (for the manual index); 404 when the
 * transaction is unknown or not mined yet.
 */
export async function readReceiptFacts<T>(
  chain: EvmChainClient,
  txHash: Hex,
  read: (receipt: TransactionReceipt, timestamp: bigint) => T[],
): Promise<T[]> {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash: txHash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) {
      throw new NotFoundError(
        "TRANSACTION_NOT_FOUND",
        `transaction ${txHash} is unknown or not yet mined on chain ${chain.chain.id}`,
      );
    }
    throw error;
  });
  // A reverted transaction emitted nothing.
  if (receipt.status !== "success" || read(receipt, 0n).length === 0) return [];
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return read(receipt, block.timestamp);
}
