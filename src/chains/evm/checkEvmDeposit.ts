import { type Hex, TransactionReceiptNotFoundError } from "viem";
import type { AppliedDeposit } from "../chainFacts.js";
import type { DepositCheck } from "../adapter.js";
import { depositFactsOfReceipt } from "./depositFactsOfReceipt.js";
import type { EvmChainClient } from "./evmChainClient.js";

/**
 * Whether a deposit may be filled: `required` blocks deep, and still in the chain where it was indexed (checked
 * against the node itself, not the indexer, whose rows can lag a reorg), or moved to another block by a reorg.
 */
export async function checkEvmDeposit(
  chain: EvmChainClient,
  deposit: AppliedDeposit,
  required: number,
): Promise<DepositCheck> {
  const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const confirmations = Number(head - deposit.blockNumber) + 1;
  if (confirmations < required) return { state: "confirming", missingBlocks: required - confirmations };

  // Only the node's "no such receipt" means the deposit is gone: any other failure (a timeout, a refused
  // connection) is thrown for the job to retry, never taken for a reorg that would fail the request.
  const receipt = await chain.publicClient
    .getTransactionReceipt({ hash: deposit.txHash as Hex })
    .catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
  if (receipt && receipt.status === "success" && receipt.blockHash.toLowerCase() === deposit.blockHash.toLowerCase())
    return { state: "final" };
  // Mined again in another block by a reorg: followed there if it pays the same (its log index counts that block's logs).
  const there =
    receipt?.status === "success"
      ? depositFactsOfReceipt(chain.chain.id, chain.chain.depository, receipt, 0n).find(
          (fact) =>
            fact.currency === deposit.currency.toLowerCase() &&
            fact.amount === deposit.amount &&
            fact.depositor === deposit.depositor.toLowerCase(),
        )
      : undefined;
  if (there) {
    const block = await chain.publicClient.getBlock({ blockHash: receipt!.blockHash });
    return {
      state: "moved",
      to: {
        logIndex: there.logIndex,
        blockNumber: there.blockNumber,
        blockHash: there.blockHash,
        timestamp: block.timestamp,
      },
    };
  }
  return {
    state: "reorged",
    reorg: {
      detectedAt: Date.now(),
      source: "fill-check",
      reason: receipt
        ? receipt.status !== "success"
          ? "deposit transaction failed"
          : "deposit mined in another block"
        : "deposit transaction not found",
      failReason: "DEPOSIT_REORGED",
      action: "fill",
      blockNumber: Number(deposit.blockNumber),
      blockHash: deposit.blockHash,
      ...(receipt ? { receiptStatus: receipt.status } : {}),
    },
  };
}
