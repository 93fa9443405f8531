import type { ChainAdapter, DepositPort, QuotePort, RefundPort, SolverPort, VmType } from "./adapter.js";
import type { ChainConfig } from "./chainConfig.js";
import { anyAddressKey } from "./vmFamilies.js";

/**
 * How each VM family's adapter is made; the composition root supplies them with the family's keys. A family with
 * no factory (Bitcoin, until its adapter lands) gets no adapter: its chains are listed and indexed, never quoted.
 */
export type AdapterFactories = {
  [vm in VmType]?: (chain: Extract<ChainConfig, { vmType: vm }>) => ChainAdapter;
};

export type ChainAdapters = {
  readonly all: readonly ChainAdapter[];
  /** The adapter of a configured chain; asking for a chain without one is a programming error. */
  adapter(chainId: number): ChainAdapter;
  /** The adapter of a chain, or undefined when the chain is unknown or its family has no adapter yet. */
  find(chainId: number): ChainAdapter | undefined;
  /** A chain's roles, undefined when the chain is unknown or its family has no adapter (or not that role). */
  quoterOf(chainId: number): QuotePort | undefined;
  depositsOf(chainId: number): DepositPort | undefined;
  solverOf(chainId: number): SolverPort | undefined;
  refunderOf(chainId: number): RefundPort | undefined;
  /** The comparison key of an address that some configured chain's family accepts, for fields bound to no chain. */
  anyAddressKey(value: string): string | undefined;
};

function makeAdapter(chain: ChainConfig, factories: AdapterFactories): ChainAdapter | undefined {
  // The factory of the chain's own vmType: it reads only chains of its family.
  const factory = factories[chain.vmType] as ((chain: ChainConfig) => ChainAdapter) | undefined;
  return factory?.(chain);
}

/** One adapter per configured chain whose `vmType` has a factory. */
export function createChainAdapters(chains: readonly ChainConfig[], factories: AdapterFactories): ChainAdapters {
  const byId = new Map<number, ChainAdapter>();
  for (const chain of chains) {
    const adapter = makeAdapter(chain, factories);
    if (adapter) byId.set(chain.id, adapter);
  }
  const all = [...byId.values()];
  const families = [...new Map(all.map((adapter) => [adapter.vmType, adapter])).values()];
  return {
    all,
    adapter(chainId) {
      const adapter = byId.get(chainId);
      if (!adapter) throw new Error(`no adapter for chain ${chainId}`);
      return adapter;
    },
    find: (chainId) => byId.get(chainId),
    quoterOf: (chainId) => byId.get(chainId),
    depositsOf: (chainId) => byId.get(chainId),
    solverOf: (chainId) => byId.get(chainId),
    refunderOf: (chainId) => byId.get(chainId),
    anyAddressKey: (value) => anyAddressKey(value, families),
  };
}
