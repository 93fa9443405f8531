import type { Currency } from "../chains/chainRegistry.js";
import { InvalidInputError, TransientError, isCrossfillError } from "../domain/errors.js";
import type { PriceSource } from "../pricing/priceSource.js";

/**
 * A currency's USD price for a quote. No price is the caller's problem (UNSUPPORTED_CURRENCY); a price source
 * that fails is ours and may pass (PRICE_FETCH_FAILED, 503, retryable), never a 500.
 */
export async function priceOf(prices: PriceSource, currency: Currency): Promise<bigint> {
  let price: bigint | undefined;
  try {
    price = await prices.usdPriceE18(currency);
  } catch (error) {
    if (isCrossfillError(error)) throw error;
    throw new TransientError(
      "PRICE_FETCH_FAILED",
      `the price of ${currency.symbol} could not be fetched; retry`,
      error,
    );
  }
  if (!price) {
    throw new InvalidInputError(
      "UNSUPPORTED_CURRENCY",
      `${currency.symbol} on chain ${currency.chainId} cannot be priced`,
    );
  }
  return price;
}
