/** The perps exchange's EVM chain: a devnet EVM chain whose native currency is HYPE, not ether. */
export const EXCHANGE_EVM_CHAIN_ID = 999;

export type NativeCurrency = { symbol: string; name: string; decimals: number };

/** A devnet chain's native currency by its id: HYPE on the exchange's EVM chain, ETH elsewhere (both 18 decimals). */
export function devnetNativeCurrency(chainId: number): NativeCurrency {
  return chainId === EXCHANGE_EVM_CHAIN_ID
    ? { symbol: "HYPE", name: "HYPE", decimals: 18 }
    : { symbol: "ETH", name: "Ether", decimals: 18 };
}
