import { type Address, getAddress, isAddress, zeroAddress } from "viem";
import type { ChainConfig } from "./chainConfig.js";

export type Currency = {
  chainId: number;
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
  metadata: { logoURI: string; verified: boolean; isNative: boolean };
};

export type ChainRegistry = {
  chains: readonly ChainConfig[];
  chain(chainId: number): ChainConfig | undefined;
  chainByName(name: string): ChainConfig | undefined;
  /** A supported currency of a chain: the native one at the zero address, or a configured ERC-20. */
  currency(chainId: number, address: string): Currency | undefined;
  currencies(chainId: number): Currency[];
};

function nativeCurrency(chain: ChainConfig): Currency {
  return {
    chainId: chain.id,
    address: zeroAddress,
    symbol: chain.nativeCurrency.symbol,
    name: chain.nativeCurrency.name,
    decimals: chain.nativeCurrency.decimals,
    metadata: { logoURI: "", verified: true, isNative: true },
  };
}

export function createChainRegistry(chains: readonly ChainConfig[]): ChainRegistry {
  const byId = new Map(chains.map((chain) => [chain.id, chain]));
  const byName = new Map(chains.map((chain) => [chain.name, chain]));
  const currencies = new Map<number, Currency[]>(
    chains.map((chain) => [
      chain.id,
      [
        nativeCurrency(chain),
        ...chain.currencies.map((currency) => ({
          chainId: chain.id,
          address: getAddress(currency.address),
          symbol: currency.symbol,
          name: currency.name ?? currency.symbol,
          decimals: currency.decimals,
          metadata: { logoURI: "", verified: true, isNative: false },
        })),
      ],
    ]),
  );
  return {
    chains,
    chain: (chainId) => byId.get(chainId),
    chainByName: (name) => byName.get(name),
    currency(chainId, address) {
      if (!isAddress(address, { strict: false })) return undefined;
      const wanted = address.toLowerCase();
      return currencies.get(chainId)?.find((currency) => currency.address.toLowerCase() === wanted);
    },
    currencies: (chainId) => currencies.get(chainId) ?? [],
  };
}
