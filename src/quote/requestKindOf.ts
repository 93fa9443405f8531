import type { Currency } from "../chains/chainRegistry.js";

export type RequestKind = { requestType: string; operation: string; isFixedRate: boolean; sameChain: boolean };

/**
 * The spec's requestType of a quote. On one chain: the same currency is a Send; the native currency to the chain's
 * wrapped native (its `wrapsNative` currency, a WETH9) a Wrap, the reverse an Unwrap; anything else a Same-chain
 * Swap. Across chains: the same asset (by symbol) is a Bridge, else a Crosschain Swap. Calls are Calls.
 */
export function requestKindOf(request: {
  calls: readonly unknown[];
  currencyIn: Currency;
  currencyOut: Currency;
  /** The wrapped native of the origin chain, if it has one. */
  wrappedNative: Currency | undefined;
}): RequestKind {
  const { currencyIn, currencyOut } = request;
  const sameChain = currencyIn.chainId === currencyOut.chainId;
  if (request.calls.length > 0) return { requestType: "Call", operation: "call", isFixedRate: false, sameChain };
  const symbolIn = currencyIn.symbol.toUpperCase();
  const symbolOut = currencyOut.symbol.toUpperCase();
  if (sameChain) {
    const isWrapped = (currency: Currency) =>
      request.wrappedNative !== undefined &&
      currency.address.toLowerCase() === request.wrappedNative.address.toLowerCase();
    if (currencyIn.address.toLowerCase() === currencyOut.address.toLowerCase())
      return { requestType: "Send", operation: "send", isFixedRate: true, sameChain };
    if (currencyIn.metadata.isNative && isWrapped(currencyOut))
      return { requestType: "Wrap", operation: "wrap", isFixedRate: true, sameChain };
    if (isWrapped(currencyIn) && currencyOut.metadata.isNative)
      return { requestType: "Unwrap", operation: "unwrap", isFixedRate: true, sameChain };
    return { requestType: "Same-chain Swap", operation: "swap", isFixedRate: false, sameChain };
  }
  return symbolIn === symbolOut
    ? { requestType: "Bridge", operation: "bridge", isFixedRate: true, sameChain }
    : { requestType: "Crosschain Swap", operation: "swap", isFixedRate: false, sameChain };
}
