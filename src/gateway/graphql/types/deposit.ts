import type { RequestDeposit } from "../../../../schema/requestChainFacts.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";
import { LocatedFactRef } from "./locatedFact.js";

export const DepositRef = builder.objectRef<RequestDeposit>("Deposit").implement({
  description: "A deposit on the origin chain applied to the request.",
  interfaces: [LocatedFactRef],
  fields: (t) => ({
    chainId: t.exposeInt("chainId"),
    txHash: t.exposeString("txHash"),
    depositor: t.exposeString("depositor"),
    currencyAddress: t.exposeString("currency"),
    currency: t.field({
      type: CurrencyRef,
      nullable: true,
      description: "Null when the deposited currency is not one the service supports.",
      resolve: (deposit, _, context) => context.registry.currency(deposit.chainId, deposit.currency) ?? null,
    }),
    amount: t.string({ resolve: (deposit) => deposit.amount.toString() }),
    blockNumber: t.string({ resolve: (deposit) => deposit.blockNumber.toString() }),
    timestamp: t.exposeInt("timestamp", { description: "Block time, unix seconds." }),
    txFee: t.string({
      nullable: true,
      description: "What the transaction paid for gas, wei (gasUsed × effectiveGasPrice); null when not recorded.",
      resolve: (deposit) => deposit.txFee?.toString() ?? null,
    }),
    reorg: t.field({
      type: "JSON",
      nullable: true,
      description:
        "Set when the deposit is gone (reorged out, or replaced before it was mined): why, when it was found and " +
        "where it had been — the context the status endpoint shows as the deposit's `metadata.reorg`. Null while it stands.",
      resolve: (deposit) => deposit.reorg,
    }),
  }),
});
