import { type Hex, TransactionReceiptNotFoundError, parseEventLogs } from "viem";
import { depositoryAbi } from "../../../contracts/abis.js";
import type { DepositFact } from "../../../schema/chainFacts.js";
import { NotFoundError } from "../../domain/errors.js";
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
  const depository = chain.chain.depository.toLowerCase();
  const logs = parseEventLogs({ abi: depositoryAbi, eventName: "Deposit", logs: receipt.logs }).filter(
    (log) => log.address.toLowerCase() === depository,
  );
  if (logs.length === 0) return [];
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  // In lower case, as Ponder records hashes and addresses: the two sources must agree on one deposit.
  return logs.map((log) => ({
    chainId: chain.chain.id,
    txHash: receipt.transactionHash.toLowerCase(),
    logIndex: log.logIndex,
    orderId: log.args.orderId.toLowerCase(),
    depositor: log.args.depositor.toLowerCase(),
    currency: log.args.currency.toLowerCase(),
    amount: log.args.amount,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash.toLowerCase(),
    timestamp: block.timestamp,
    txFrom: receipt.from.toLowerCase(),
    // The same product the indexer records, so the two sources agree on one deposit.
    txFee: receipt.gasUsed * receipt.effectiveGasPrice,
  }));
}
