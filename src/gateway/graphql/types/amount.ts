import type { Currency } from "../../../chains/chainRegistry.js";
import type { AmountObject } from "../../../quote/amountObject.js";
import type { Amount } from "../../../requests/requestRoute.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";

export const AmountRef = builder.objectRef<AmountObject | Amount>("Amount").implement({
  description: "An amount of a currency: integers in the smallest unit as decimal strings, with its USD value.",
  fields: (t) => ({
    // A request record's currency has the same fields; its address is a plain string (not every chain is EVM).
    currency: t.field({ type: CurrencyRef, resolve: (amount) => amount.currency as Currency }),
    amount: t.exposeString("amount"),
    amountFormatted: t.exposeString("amountFormatted"),
    amountUsd: t.exposeString("amountUsd"),
    minimumAmount: t.exposeString("minimumAmount"),
  }),
});
