/**
 * What a currency is priced by: its symbol in upper case, on every chain (USDC on two chains is one price). The
 * chains file names each key's feeds (a chain's `prices`), the static table its own (PRICES).
 */
export function priceKeyOf(currency: { symbol: string }): string {
  return currency.symbol.toUpperCase();
}
