import type { Currency } from "../../../chains/chainRegistry.js";
import type { CurrencyObject } from "../../../requests/requestRoute.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";

type AppFee = { recipient: string; bps: string; amount: string; amountFormatted: string; amountUsd?: string };

const AppFeeRef = builder.objectRef<AppFee>("AppFee").implement({
  fields: (t) => ({
    recipient: t.exposeString("recipient"),
    bps: t.exposeString("bps", { description: "Basis points." }),
    amount: t.exposeString("amount"),
    amountFormatted: t.exposeString("amountFormatted"),
    amountUsd: t.string({
      nullable: true,
      description: "USD at the quote's price; the actual fees' scaled with what was earned.",
      resolve: (fee) => fee.amountUsd ?? null,
    }),
  }),
});

/** data.appFees of the v3 record. */
export const RequestAppFeesRef = builder
  .objectRef<{ quoted: AppFee[]; actual: AppFee[]; currency: CurrencyObject }>("RequestAppFees")
  .implement({
    description: "data.appFees of GET /requests/v3.",
    fields: (t) => ({
      quoted: t.field({ type: [AppFeeRef], resolve: (fees) => fees.quoted }),
      actual: t.field({ type: [AppFeeRef], resolve: (fees) => fees.actual }),
      currency: t.field({ type: CurrencyRef, resolve: (fees) => fees.currency as Currency }),
    }),
  });
