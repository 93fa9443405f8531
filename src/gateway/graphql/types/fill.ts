import type { RequestFill } from "../../../../schema/requestChainFacts.js";
import { builder } from "../builder.js";
import { LocatedFactRef } from "./locatedFact.js";

export const FillRef = builder.objectRef<RequestFill>("Fill").implement({
  description:
    "The solver's fill on the destination chain: from its own receipt as soon as the request succeeds on it " +
    "(`provisional`), then as indexed.",
  interfaces: [LocatedFactRef],
  fields: (t) => ({
    chainId: t.exposeInt("chainId"),
    txHash: t.exposeString("txHash"),
    amount: t.string({ resolve: (fill) => fill.amount.toString() }),
    blockNumber: t.string({ resolve: (fill) => fill.blockNumber.toString() }),
    timestamp: t.exposeInt("timestamp", { description: "Block time, unix seconds." }),
    txFee: t.string({
      nullable: true,
      description: "What the transaction paid for gas, wei (gasUsed × effectiveGasPrice); null when not recorded.",
      resolve: (fill) => fill.txFee?.toString() ?? null,
    }),
    provisional: t.exposeBoolean("provisional", {
      description: "True while the fill is known from the solver's receipt only and the indexer has not confirmed it.",
    }),
    disagreement: t.field({
      type: "JSON",
      nullable: true,
      description:
        "Why the indexer's view of this fill differs from the receipt's: another fill indexed (`reason`, the " +
        "receipt's `receiptTxHash`), none indexed after the wait, or the receipt's block reorged out; null otherwise. " +
        "The status endpoint shows it as the outTx's `metadata.disagreement`.",
      resolve: (fill) => fill.disagreement,
    }),
  }),
});
