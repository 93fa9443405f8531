import type { FailedTransaction } from "../../../domain/failedTransaction.js";
import { builder } from "../builder.js";

const FailedCallRef = builder.objectRef<FailedTransaction["call"]>("FailedCall").implement({
  fields: (t) => ({
    from: t.exposeString("from"),
    to: t.exposeString("to"),
    data: t.exposeString("data"),
    value: t.exposeString("value", { description: "Wei." }),
  }),
});

export const FailedTransactionRef = builder.objectRef<FailedTransaction>("FailedTransaction").implement({
  description:
    "The destination transaction behind a failed fill (the v3 record's failedTxHash, failedTxBlockNumber, failedCallData).",
  fields: (t) => ({
    txHash: t.exposeString("txHash", {
      nullable: true,
      description: "Null when the fill was refused in simulation and never sent.",
    }),
    blockNumber: t.string({ nullable: true, resolve: (failed) => failed.blockNumber?.toString() ?? null }),
    call: t.field({ type: FailedCallRef, resolve: (failed) => failed.call }),
  }),
});
