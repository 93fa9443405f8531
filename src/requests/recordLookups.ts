import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { CurrencyLookup, CurrencyObject } from "./requestRoute.js";

/** What the records need of the chain registry. */
export type RecordRegistry = Pick<ChainRegistry, "chains" | "currency" | "currencies">;

/** Currency and depository lookups of the request records (REST v3 and v2, GraphQL), from the chain registry. */
export function recordLookups(registry: RecordRegistry): {
  currencyOf: CurrencyLookup;
  depositoryOf: (chainId: number) => string | null;
  /** The chain's native currency: what its transactions pay their network fee in. */
  nativeCurrencyOf: (chainId: number) => CurrencyObject | undefined;
} {
  return {
    currencyOf: (chainId, address) => registry.currency(chainId, address),
    depositoryOf: (chainId) => registry.chains.find((chain) => chain.id === chainId)?.depository ?? null,
    nativeCurrencyOf: (chainId) => registry.currencies(chainId).find((currency) => currency.metadata.isNative),
  };
}
