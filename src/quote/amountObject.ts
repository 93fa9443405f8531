import type { Currency } from "../chains/chainRegistry.js";
import { formatAmount } from "../domain/money.js";

export type AmountObject = {
  currency: Currency;
  amount: string;
  amountFormatted: string;
  amountUsd: string;
  minimumAmount: string;
};

/** USD value (scaled by 1e18) of an amount in the smallest unit. */
export function usdValueE18(amount: bigint, currency: { decimals: number }, usdPriceE18: bigint): bigint {
  return (amount * usdPriceE18) / 10n ** BigInt(currency.decimals);
}

/** USD for display: six decimals at most, truncated toward zero. */
export function formatUsd(usdE18: bigint): string {
  return formatAmount(usdE18 / 10n ** 12n, 6);
}

/** The spec's Amount object. */
export function amountObject(currency: Currency, amount: bigint, usdPriceE18: bigint, minimumAmount = amount): AmountObject {
  return {
    currency,
    amount: amount.toString(),
    amountFormatted: formatAmount(amount, currency.decimals),
    amountUsd: formatUsd(usdValueE18(amount, currency, usdPriceE18)),
    minimumAmount: minimumAmount.toString(),
  };
}
