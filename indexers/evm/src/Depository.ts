// Depository facts, one row per log; no logic beyond copying the log and its transaction's fee (see schema/onchain.ts).
// Ponder's own live-query NOTIFY wakes the reconcile when the block commits (schema/chainFactsNotices.ts).
import { ponder } from "ponder:registry";
import { deposit, withdrawal } from "ponder:schema";

ponder.on("Depository:Deposit", async ({ event, context }) => {
  await context.db.insert(deposit).values({
    id: `${context.chain.id}:${event.transaction.hash}:${event.log.logIndex}`,
    chainId: context.chain.id,
    orderId: event.args.orderId,
    depositor: event.args.depositor,
    currency: event.args.currency,
    amount: event.args.amount,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    blockNumber: event.block.number,
    blockHash: event.block.hash,
    timestamp: event.block.timestamp,
    txFrom: event.transaction.from,
    txFee: event.transactionReceipt.gasUsed * event.transactionReceipt.effectiveGasPrice,
  });
});

ponder.on("Depository:Withdrawal", async ({ event, context }) => {
  await context.db.insert(withdrawal).values({
    id: `${context.chain.id}:${event.transaction.hash}:${event.log.logIndex}`,
    chainId: context.chain.id,
    orderId: event.args.orderId,
    currency: event.args.currency,
    recipient: event.args.to,
    amount: event.args.amount,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    blockNumber: event.block.number,
    blockHash: event.block.hash,
    timestamp: event.block.timestamp,
    txFrom: event.transaction.from,
  });
});
