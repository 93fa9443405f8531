import { parseDecimal } from "../domain/money.js";
import type { Currency } from "../chains/chainRegistry.js";

/** USD for one whole unit of a currency, scaled by 1e18; undefined when the currency has no price. */
export type PriceSource = {
  usdPriceE18(currency: Currency): Promise<bigint | undefined>;
};

/** Prices from configuration, by symbol: the devnet's and a fixed-rate deployment's source. */
export function createStaticPriceSource(pricesBySymbol: Readonly<Record<string, string>>): PriceSource {
  const prices = new Map(
    Object.entries(pricesBySymbol).map(([symbol, usd]) => [symbol.toUpperCase(), parseDecimal(usd, 18)]),
  );
  return {
    async usdPriceE18(currency) {
      return prices.get(currency.symbol.toUpperCase());
    },
  };
}
