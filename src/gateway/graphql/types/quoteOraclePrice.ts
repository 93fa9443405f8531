import type { Currency } from "../../../chains/chainRegistry.js";
import type { QuoteOraclePrice } from "../../../requests/quoteOraclePrice.js";
import { builder } from "../builder.js";
import { CurrencyRef } from "./currency.js";

/** data.quoteOraclePrice of GET /requests/v3: the oracle rate a fixed-bps oracle quote was priced at. */
export const QuoteOraclePriceRef = builder.objectRef<QuoteOraclePrice>("QuoteOraclePrice").implement({
  description:
    "The oracle rate a fixed-bps oracle quote was priced at (the quote gave this rate less the key's bps), and when its prices were observed.",
  fields: (t) => ({
    rate: t.exposeString("rate", { description: "Output per whole unit of input, as a decimal string." }),
    observedAt: t.field({ type: "DateTime", resolve: (price) => new Date(price.observedAt) }),
    inputCurrency: t.field({ type: CurrencyRef, resolve: (price) => price.inputCurrency as Currency }),
    outputCurrency: t.field({ type: CurrencyRef, resolve: (price) => price.outputCurrency as Currency }),
  }),
});
