import type { RequestFill } from "../../../../schema/requestChainFacts.js";
import { builder } from "../builder.js";
import { int32Position } from "../../../domain/factPosition.js";

export const FillRef = builder.objectRef<RequestFill>("Fill").implement({
  description:
    "The solver's fill on the destination chain: from its own receipt as soon as the request succeeds on it " +
    "(`provisional`), then as indexed.",
  fields: (t) => ({
    chainId: t.exposeInt("chainId"),
    txHash: t.exposeString("txHash"),
    logIndex: t.int({
      nullable: true,
      description:
        "The position as a 32-bit Int (an EVM log index, a Bitcoin vout); null when it does not fit (a TON lt): read `position`.",
      resolve: (fill) => int32Position(fill.logIndex),
    }),
    position: t.string({
      description:
        "Where the fact sits in its transaction or chain, exact at any size, as a decimal string: an EVM log index, a Bitcoin vout, a TON lt.",
      resolve: (fill) => fill.logIndex.toString(),
    }),
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
