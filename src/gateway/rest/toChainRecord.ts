import type { QuotePort } from "../../chains/adapter.js";
import type { ChainConfig } from "../../chains/chainConfig.js";
import type { ChainFamily } from "../../chains/chainFamily.js";
import type { ChainAvailability } from "../../chains/createChainAvailability.js";
import { currencyKey } from "../../chains/currencyKey.js";
import { currencyMetadata } from "../../chains/currencyMetadata.js";
import { EXPLORER_PATHS } from "../../chains/explorerPaths.js";
import { familyOfChain } from "../../chains/familyOfChain.js";

/**
 * The spec's Chain record for a configured chain; contracts it has no counterpart of show its native (null) id. Its
 * RPC URLs are the chains file's `publicRpcUrl`/`publicWsUrl`, empty when unset; its explorer name, icon, tags, base
 * chain, Multicall3 and currency logos are the entry's. A Bitcoin chain has no contracts and no RPC: every contract
 * shows the native BTC id, the RPC URLs are empty and `protocol.v2.depository` is the depository address.
 * Deposit and withdrawal fees are 0 and surge off: Crossfill charges neither (docs/API.md).
 */
export function toChainRecord(
  chain: ChainConfig,
  adapter: QuotePort | undefined,
  availability: ChainAvailability,
  family: ChainFamily<ChainConfig> = familyOfChain(chain),
) {
  const codec = family.codecOf(chain);
  const { nativeCurrency } = codec;
  const { receiver, tokens, publicRpcUrl, publicWsUrl, multicall3 } = family.publicFields(chain);
  const erc20Currencies = tokens.map((currency) => ({
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
  // The spec's record has no field for it; Wraps and Unwraps convert through this one (WETH9), so clients see which.
  const wrapped = erc20Currencies.find((_, index) => tokens[index].wrapsNative);
  const native = {
    id: chain.nativeCurrency.symbol.toLowerCase(),
    symbol: chain.nativeCurrency.symbol,
    name: chain.nativeCurrency.name,
    address: nativeCurrency,
    decimals: chain.nativeCurrency.decimals,
    supportsBridging: true,
  };
  // The entries the currencies come from, in the same order: the native one, then the tokens.
  const entries = [chain.nativeCurrency, ...tokens];
  const featured = [native, ...erc20Currencies].map(({ id, symbol, name, address, decimals }, index) => ({
    id,
    symbol,
    name,
    address,
    decimals,
    metadata: currencyMetadata(entries[index], address === nativeCurrency),
  }));
  return {
    id: chain.id,
    name: chain.name,
    displayName: chain.displayName ?? chain.name,
    // Only the URLs the chains file publishes: the solver's own (rpcUrl, wsUrl) may carry a provider key.
    httpRpcUrl: publicRpcUrl ?? "",
    wsRpcUrl: publicWsUrl ?? "",
    explorerUrl: chain.explorerUrl,
    explorerName: chain.explorerName ?? "",
    explorerPaths: { ...EXPLORER_PATHS },
    depositEnabled: availability.depositEnabled,
    tokenSupport: "All",
    disabled: availability.disabled,
    // A number in USD, as the spec has it; 0 when the chain takes quotes of any size.
    partialDisableLimit: availability.partialDisableLimitUsd === null ? 0 : Number(availability.partialDisableLimitUsd),
    blockProductionLagging: availability.blockProductionLagging,
    currency: native,
    wrappedNativeCurrency: wrapped
      ? {
          id: wrapped.id,
          symbol: wrapped.symbol,
          name: wrapped.name,
          address: wrapped.address,
          decimals: wrapped.decimals,
          supportsBridging: wrapped.supportsBridging,
        }
      : null,
    withdrawalFee: 0,
    depositFee: 0,
    surgeEnabled: false,
    featuredTokens: featured,
    erc20Currencies,
    // What the solver can pay out here: the listed currencies it held some of at the worker's last balance read.
    // Compared as the family keys currencies: Solana's base58 mints are case-sensitive.
    solverCurrencies: featured.filter((currency) =>
      availability.solverCurrencies.includes(currencyKey(codec, currency.address)),
    ),
    iconUrl: chain.iconUrl ?? "",
    contracts: {
      multicall3: multicall3 ?? nativeCurrency,
      multicaller: receiver,
      onlyOwnerMulticaller: receiver,
      relayReceiver: receiver,
      erc20Router: nativeCurrency,
      approvalProxy: nativeCurrency,
      v3: { erc20Router: nativeCurrency, approvalProxy: nativeCurrency },
    },
    vmType: chain.vmType,
    baseChainId: chain.baseChainId ?? chain.id,
    solverAddresses: adapter ? [adapter.solverAddress] : [],
    tags: chain.tags ?? [],
    protocol: { v2: { chainId: chain.name, depository: chain.depository } },
  };
}
