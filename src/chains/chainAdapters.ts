import type { ChainAdapter, VmType } from "./adapter.js";
import type { ChainConfig } from "./chainConfig.js";
import { anyAddressKey } from "./vmFamilies.js";

/** How each VM family's adapter is made; the composition root supplies them with the family's keys. */
export type AdapterFactories = { [vm in VmType]: (chain: ChainConfig) => ChainAdapter };

export type ChainAdapters = {
  readonly all: readonly ChainAdapter[];
  /** The adapter of a configured chain; asking for an unconfigured chain is a programming error. */
  adapter(chainId: number): ChainAdapter;
  /** The comparison key of an address that some configured chain's family accepts, for fields bound to no chain. */
  anyAddressKey(value: string): string | undefined;
};

/** One adapter per configured chain, made by the factory of the chain's `vmType`. */
export function createChainAdapters(chains: readonly ChainConfig[], factories: AdapterFactories): ChainAdapters {
  const byId = new Map(chains.map((chain) => [chain.id, factories[chain.vmType](chain)]));
  const all = [...byId.values()];
  const families = [...new Map(all.map((adapter) => [adapter.vmType, adapter])).values()];
  return {
    all,
    adapter(chainId) {
      const adapter = byId.get(chainId);
      if (!adapter) throw new Error(`no adapter for chain ${chainId}`);
      return adapter;
    },
    anyAddressKey: (value) => anyAddressKey(value, families),
  };
}
