import { formatAmount } from "../domain/money.js";
import { sameCurrencyId } from "../domain/sameCurrencyId.js";
import type { RequestView } from "../../schema/requestsQuery.js";
import { type Amount, type CurrencyLookup, type RequestRoute, amountLike } from "./requestRoute.js";

/**
 * `refundCurrencyData`: what the request's refund returned, as an Amount of the refunded currency (the deposit's),
 * once a refund transaction returned an amount; null before, and on requests never refunded. Valued at the quote's
 * price of the input currency when the refund is in it (a deposit in another currency has no stored price: "0").
 */
export function refundCurrencyData(
  view: Pick<RequestView, "refunds">,
  route: Pick<RequestRoute, "quotedIn">,
  currencyOf: CurrencyLookup,
): Amount | null {
  const paid = view.refunds.filter((refund) => refund.txHash !== null && refund.amount !== null);
  if (paid.length === 0) return null;
  const { chainId, currency } = paid[0];
  const amount = paid
    .filter((refund) => refund.chainId === chainId && refund.currency === currency)
    .reduce((sum, refund) => sum + refund.amount!, 0n);
  const inInput =
    route.quotedIn.currency.chainId === chainId && sameCurrencyId(route.quotedIn.currency.address, currency);
  if (inInput) return amountLike(route.quotedIn, amount);
  const known = currencyOf(chainId, currency);
  const decimals = known?.decimals ?? 0;
  return {
    currency: known ?? {
      chainId,
      address: currency,
      symbol: "",
      name: "",
      decimals,
      metadata: { logoURI: "", verified: false, isNative: false },
    },
    amount: amount.toString(),
    amountFormatted: formatAmount(amount, decimals),
    amountUsd: "0",
    minimumAmount: amount.toString(),
  };
}
