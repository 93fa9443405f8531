import type { Currency } from "../chains/chainRegistry.js";
import { TransientError, isCrossfillError } from "../domain/errors.js";
import type { PriceObservation } from "../pricing/priceObservation.js";
import type { PriceSource } from "../pricing/priceSource.js";

/**
 * The fresh USD prices of a quote's currencies, read together (one round trip per source). A currency no source
 * prices is the caller's problem (UNSUPPORTED_CURRENCY, 400); a source that fails is ours and may pass
 * (PRICE_FETCH_FAILED, 503, retryable), never a 500, and its error's text (hosts, keys) stays inside.
 */
export async function quotePrices(prices: PriceSource, currencies: readonly Currency[]): Promise<PriceObservation[]> {
  try {
    return await prices.pricesOf(currencies);
  } catch (error) {
    if (isCrossfillError(error)) throw error;
    const symbols = [...new Set(currencies.map((currency) => currency.symbol))].join(", ");
    throw new TransientError("PRICE_FETCH_FAILED", `the prices of ${symbols} could not be fetched; retry`, error, {
      currencies: symbols,
    });
  }
}
