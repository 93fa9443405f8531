import type { ChainAdapter } from "../../chains/adapter.js";
import type { ChainAvailability } from "../../chains/createChainAvailability.js";
import { EXPLORER_PATHS } from "../../chains/explorerPaths.js";

/** The spec's Chain record for a configured chain; contracts it has no counterpart of show its native (null) id. */
export function toChainRecord(adapter: ChainAdapter, availability: ChainAvailability) {
  const { chain, nativeCurrency } = adapter;
  const erc20Currencies = chain.currencies.map((currency) => ({
    id: currency.symbol.toLowerCase(),
    symbol: currency.symbol,
    name: currency.name ?? currency.symbol,
    address: currency.address,
    decimals: currency.decimals,
    supportsBridging: true,
    withdrawalFee: 0,
    depositFee: 0,
    surgeEnabled: false,
  }));
  const native = {
    id: chain.nativeCurrency.symbol.toLowerCase(),
    symbol: chain.nativeCurrency.symbol,
    name: chain.nativeCurrency.name,
    address: nativeCurrency,
    decimals: chain.nativeCurrency.decimals,
    supportsBridging: true,
  };
  const featured = [native, ...erc20Currencies].map(({ id, symbol, name, address, decimals }) => ({
    id,
    symbol,
    name,
    address,
    decimals,
    metadata: { logoURI: "", verified: true, isNative: address === nativeCurrency },
  }));
  return {
    id: chain.id,
    name: chain.name,
    displayName: chain.displayName ?? chain.name,
    httpRpcUrl: chain.rpcUrl,
    wsRpcUrl: chain.wsUrl ?? "",
    explorerUrl: chain.explorerUrl,
    explorerName: chain.explorerUrl ? "Explorer" : "",
    explorerPaths: { ...EXPLORER_PATHS },
    depositEnabled: availability.depositEnabled,
    tokenSupport: "All",
    disabled: availability.disabled,
    // A number in USD, as the spec has it; 0 when the chain takes quotes of any size.
    partialDisableLimit: availability.partialDisableLimitUsd === null ? 0 : Number(availability.partialDisableLimitUsd),
    blockProductionLagging: availability.blockProductionLagging,
    currency: native,
    withdrawalFee: 0,
    depositFee: 0,
    surgeEnabled: false,
    featuredTokens: featured,
    erc20Currencies,
    solverCurrencies: featured,
    iconUrl: "",
    contracts: {
      multicall3: nativeCurrency,
      multicaller: chain.receiver,
      onlyOwnerMulticaller: chain.receiver,
      relayReceiver: chain.receiver,
      erc20Router: nativeCurrency,
      approvalProxy: nativeCurrency,
      v3: { erc20Router: nativeCurrency, approvalProxy: nativeCurrency },
    },
    vmType: chain.vmType,
    baseChainId: chain.id,
    solverAddresses: [adapter.solverAddress],
    tags: [],
    protocol: { v2: { chainId: chain.name, depository: chain.depository } },
  };
}
