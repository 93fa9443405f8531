// Receiver facts, one row per log; no logic beyond copying the log and its transaction's fee (see schema/onchain.ts).
// Ponder's own live-query NOTIFY wakes the reconcile when the block commits (schema/chainFactsNotices.ts).
import { ponder } from "ponder:registry";
import { fill } from "ponder:schema";

ponder.on("Receiver:Fill", async ({ event, context }) => {
  await context.db.insert(fill).values({
    id: `${context.chain.id}:${event.transaction.hash}:${event.log.logIndex}`,
    chainId: context.chain.id,
    requestId: event.args.requestId,
    solver: event.args.solver,
    currency: event.args.currency,
    recipient: event.args.recipient,
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
