import type { Currency } from "../chains/chainRegistry.js";
import { formatAmount } from "../domain/money.js";
import { usdValueE18 } from "../pricing/usdValue.js";

export type AmountObject = {
  currency: Currency;
  amount: string;
  amountFormatted: string;
  amountUsd: string;
  minimumAmount: string;
};

/** USD for display: six decimals at most, truncated toward zero. */
export function formatUsd(usdE18: bigint): string {
  return formatAmount(usdE18 / 10n ** 12n, 6);
}

/** The spec's Amount object. */
export function amountObject(
  currency: Currency,
  amount: bigint,
  usdPriceE18: bigint,
  minimumAmount = amount,
): AmountObject {
  return {
    currency,
    amount: amount.toString(),
    amountFormatted: formatAmount(amount, currency.decimals),
    amountUsd: formatUsd(usdValueE18(amount, currency, usdPriceE18)),
    minimumAmount: minimumAmount.toString(),
  };
}
