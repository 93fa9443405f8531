import { divCeil } from "../domain/money.js";

/** A currency as the quote math sees it: decimals and USD per whole unit scaled by 1e18. */
export type PricedCurrency = { decimals: number; usdPriceE18: bigint };

/** Converts an amount between currencies at their USD prices; `roundUp` for what the user must pay. */
export function convertAmount(amount: bigint, from: PricedCurrency, to: PricedCurrency, roundUp = false): bigint {
  const numerator = amount * from.usdPriceE18 * 10n ** BigInt(to.decimals);
  const denominator = to.usdPriceE18 * 10n ** BigInt(from.decimals);
  return roundUp ? divCeil(numerator, denominator) : numerator / denominator;
}
