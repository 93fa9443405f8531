import type { CurrencyObject } from "./requestRoute.js";

export type QuoteOraclePrice = {
  /** Output per whole unit of input at the oracle's prices, before the bps. */
  rate: string;
  observedAt: string;
  inputCurrency: CurrencyObject;
  outputCurrency: CurrencyObject;
};

/**
 * `data.quoteOraclePrice`: the oracle rate a fixed-bps oracle quote was priced at (kept with the request when it was
 * quoted, src/quote/quotedRequest.ts) and when its prices were observed; null for every other quote.
 */
export function quoteOraclePrice(
  quote: unknown,
  currencyIn: CurrencyObject,
  currencyOut: CurrencyObject,
): QuoteOraclePrice | null {
  const stored = (quote as { oraclePrice?: { rate: string; observedAt: string } } | null)?.oraclePrice;
  if (!stored) return null;
  return { rate: stored.rate, observedAt: stored.observedAt, inputCurrency: currencyIn, outputCurrency: currencyOut };
}
