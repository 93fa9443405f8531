import { type Hex, TransactionReceiptNotFoundError } from "viem";
import type { DepositFact } from "../chainFacts.js";
import { NotFoundError } from "../../domain/errors.js";
import { depositFactsOfReceipt } from "./depositFactsOfReceipt.js";
import type { EvmChainClient } from "./evmChainClient.js";

/** The Depository deposits a mined transaction made, read from its receipt; 404 when it is unknown or unmined. */
export async function readDepositFacts(chain: EvmChainClient, txHash: Hex): Promise<DepositFact[]> {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash: txHash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) {
      throw new NotFoundError(
        "TRANSACTION_NOT_FOUND",
        `transaction ${txHash} is unknown or not yet mined on chain ${chain.chain.id}`,
      );
    }
    throw error;
  });
  const facts = depositFactsOfReceipt(chain.chain.id, chain.chain.depository, receipt, 0n);
  if (facts.length === 0) return [];
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return facts.map((fact) => ({ ...fact, timestamp: block.timestamp }));
}
