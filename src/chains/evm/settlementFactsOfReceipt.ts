import { type TransactionReceipt, parseEventLogs } from "viem";
import { depositoryAbi, receiverAbi } from "../../../contracts/abis.js";
import type { FillFact, WithdrawalFact } from "../chainFacts.js";

export type SettlementFact = { kind: "fill"; fact: FillFact } | { kind: "withdrawal"; fact: WithdrawalFact };

/**
 * The fills our solver made through the chain's Receiver and the Depository's withdrawals (refunds) in a mined
 * transaction, as Ponder records them (lower case, the fill's fee as gas used × effective price). A Fill logged by
 * any other solver, or by a contract that is not the Receiver, is no fact of ours.
 */
export function settlementFactsOfReceipt(
  chain: { id: number; receiver: string; depository: string },
  solver: string,
  receipt: Pick<
    TransactionReceipt,
    "logs" | "transactionHash" | "blockNumber" | "blockHash" | "gasUsed" | "effectiveGasPrice"
  >,
  timestamp: bigint,
): SettlementFact[] {
  const located = (log: { logIndex: number }) => ({
    chainId: chain.id,
    txHash: receipt.transactionHash.toLowerCase(),
    position: log.logIndex,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash.toLowerCase(),
    timestamp,
  });
  const fills = parseEventLogs({ abi: receiverAbi, eventName: "Fill", logs: receipt.logs })
    .filter(
      (log) =>
        log.address.toLowerCase() === chain.receiver.toLowerCase() &&
        log.args.solver.toLowerCase() === solver.toLowerCase(),
    )
    .map((log): SettlementFact => ({
      kind: "fill",
      fact: {
        ...located(log),
        requestId: log.args.requestId.toLowerCase(),
        currency: log.args.currency.toLowerCase(),
        recipient: log.args.recipient.toLowerCase(),
        amount: log.args.amount,
        txFee: receipt.gasUsed * receipt.effectiveGasPrice,
      },
    }));
  const withdrawals = parseEventLogs({ abi: depositoryAbi, eventName: "Withdrawal", logs: receipt.logs })
    .filter((log) => log.address.toLowerCase() === chain.depository.toLowerCase())
    .map((log): SettlementFact => ({
      kind: "withdrawal",
      fact: {
        ...located(log),
        orderId: log.args.orderId.toLowerCase(),
        currency: log.args.currency.toLowerCase(),
        recipient: log.args.to.toLowerCase(),
        amount: log.args.amount,
      },
    }));
  return [...fills, ...withdrawals];
}
