import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { usdValueE18 } from "../src/pricing/usdValue.js";

/** What an amount of a chain's currency is worth now (USD, 18 decimals); undefined when the currency is unpriced. */
export async function depositUsdValueE18(
  deposit: { chainId: number; currency: string; amount: bigint },
  deps: { registry: ChainRegistry; prices: PriceSource },
): Promise<bigint | undefined> {
  const currency = deps.registry.currency(deposit.chainId, deposit.currency);
  const price = currency && (await deps.prices.usdPriceE18(currency));
  return currency && price ? usdValueE18(deposit.amount, currency, price) : undefined;
}
