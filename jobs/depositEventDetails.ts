import type { DepositFact } from "../schema/chainFacts.js";

/** What a status change caused by a deposit records of it (status_events.details). */
export const depositEventDetails = (deposit: DepositFact) => ({
  depositTxHash: deposit.txHash,
  depositChainId: deposit.chainId,
  depositedAmount: deposit.amount.toString(),
});
