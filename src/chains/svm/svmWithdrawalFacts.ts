import type { ParsedTransactionWithMeta } from "@solana/web3.js";
import type { WithdrawalFact } from "../chainFacts.js";
import { svmFillFacts } from "./svmFillFacts.js";

/** A withdrawal fact as a Solana transaction shows it, without the chain id (the caller's). */
export type SvmWithdrawalFact = Omit<WithdrawalFact, "chainId">;

/**
 * The refunds a landed transaction of the depository made: the depository pays a refund as the solver pays a fill
 * (`svmFillFacts`, it paid the fee and its one Memo names the order), so each of its payments is a withdrawal of the
 * order the Memo names. Shared by the poller and the manual index, which must read a refund alike.
 */
export function svmWithdrawalFacts(tx: ParsedTransactionWithMeta, depository: string): SvmWithdrawalFact[] {
  return svmFillFacts(tx, depository).map(({ requestId, recipient, ...fact }) => ({
    txHash: fact.txHash,
    position: fact.position,
    orderId: requestId,
    recipient,
    currency: fact.currency,
    amount: fact.amount,
    blockNumber: fact.blockNumber,
    blockHash: fact.blockHash,
    timestamp: fact.timestamp,
  }));
}
