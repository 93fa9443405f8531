import { type TransactionReceipt, parseEventLogs } from "viem";
import { depositoryAbi } from "../../../contracts/abis.js";
import type { DepositFact } from "../chainFacts.js";

/**
 * The Depository deposits a mined transaction made, from its receipt and its block's time. Hashes and addresses in
 * lower case and the fee as gas used × effective price, as Ponder records them: every source of one deposit (Ponder,
 * the head watcher, the manual index) must write the same fact.
 */
export function depositFactsOfReceipt(
  chainId: number,
  depository: string,
  receipt: Pick<
    TransactionReceipt,
    "logs" | "transactionHash" | "blockNumber" | "blockHash" | "from" | "gasUsed" | "effectiveGasPrice"
  >,
  timestamp: bigint,
): DepositFact[] {
  const address = depository.toLowerCase();
  return parseEventLogs({ abi: depositoryAbi, eventName: "Deposit", logs: receipt.logs })
    .filter((log) => log.address.toLowerCase() === address)
    .map((log) => ({
      chainId,
      txHash: receipt.transactionHash.toLowerCase(),
      logIndex: log.logIndex,
      orderId: log.args.orderId.toLowerCase(),
      depositor: log.args.depositor.toLowerCase(),
      currency: log.args.currency.toLowerCase(),
      amount: log.args.amount,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash.toLowerCase(),
      timestamp,
      txFrom: receipt.from.toLowerCase(),
      txFee: receipt.gasUsed * receipt.effectiveGasPrice,
    }));
}
