import type { AmountObject } from "../../../quote/amountObject.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";

export const AmountRef = builder.objectRef<AmountObject>("Amount").implement({
  description: "An amount of a currency: integers in the smallest unit as decimal strings, with its USD value.",
  fields: (t) => ({
    currency: t.field({ type: CurrencyRef, resolve: (amount) => amount.currency }),
    amount: t.exposeString("amount"),
    amountFormatted: t.exposeString("amountFormatted"),
    amountUsd: t.exposeString("amountUsd"),
    minimumAmount: t.exposeString("minimumAmount"),
  }),
});
