import type { RequestFill } from "../../../../schema/requestChainFacts.js";
import { builder } from "../builder.js";

export const FillRef = builder.objectRef<RequestFill>("Fill").implement({
  description: "The solver's fill on the destination chain, as indexed.",
  fields: (t) => ({
    chainId: t.exposeInt("chainId"),
    txHash: t.exposeString("txHash"),
    logIndex: t.exposeInt("logIndex"),
    amount: t.string({ resolve: (fill) => fill.amount.toString() }),
    blockNumber: t.string({ resolve: (fill) => fill.blockNumber.toString() }),
    timestamp: t.exposeInt("timestamp", { description: "Block time, unix seconds." }),
    txFee: t.string({
      nullable: true,
      description: "What the transaction paid for gas, wei (gasUsed × effectiveGasPrice); null when not recorded.",
      resolve: (fill) => fill.txFee?.toString() ?? null,
    }),
  }),
});
