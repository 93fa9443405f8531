/** USD value (scaled by 1e18) of an amount in the smallest unit. */
export function usdValueE18(amount: bigint, currency: { decimals: number }, usdPriceE18: bigint): bigint {
  return (amount * usdPriceE18) / 10n ** BigInt(currency.decimals);
}
