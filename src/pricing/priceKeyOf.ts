/**
 * What a currency is priced by: its symbol in upper case, on every chain (USDC on two chains is one price). The
 * configuration of each source names the keys it prices (PYTH_FEED_IDS, PRICES).
 */
export function priceKeyOf(currency: { symbol: string }): string {
  return currency.symbol.toUpperCase();
}
