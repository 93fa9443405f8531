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

/** The role ports a chain's adapter may offer, by the name callers ask for them with. */
export type RolePorts = { quoter: QuotePort; deposits: DepositPort; solver: SolverPort; refunder: RefundPort };
export type ChainRoleName = keyof RolePorts;

/**
 * The configured chains' adapters, asked for by role: a caller names the role it needs (`solver(id)`), never the
 * whole adapter. `xOf` answers undefined for a chain without the role (a user's request may name one: the caller turns
 * that into the spec's UNSUPPORTED_CHAIN / UNSUPPORTED_ROUTE); `x` throws, for callers that only reach chains a
 * validated request or a stored row names, where a missing role is a programming error.
 */
export type ChainAdapters = {
  /** Every configured chain's port of a role, in the chains' order (the worker prepares each solver). */
  all<R extends ChainRoleName>(role: R): readonly RolePorts[R][];
  quoterOf(chainId: number): QuotePort | undefined;
  depositsOf(chainId: number): DepositPort | undefined;
  solverOf(chainId: number): SolverPort | undefined;
  refunderOf(chainId: number): RefundPort | undefined;
  quoter(chainId: number): QuotePort;
  deposits(chainId: number): DepositPort;
  solver(chainId: number): SolverPort;
  refunder(chainId: number): RefundPort;
  /** The comparison key of an address that some configured chain's family accepts, for fields bound to no chain. */
  anyAddressKey(value: string): string | undefined;
};

/** The throwing accessor of a role: a chain reached without it is a programming error, named. */
function required<P>(role: ChainRoleName, of: (chainId: number) => P | undefined): (chainId: number) => P {
  return (chainId) => {
    const port = of(chainId);
    if (!port) throw new Error(`chain ${chainId} has no ${role} role (no adapter, or its family offers none)`);
    return port;
  };
}

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
    all: () => all,
    quoterOf: (chainId) => byId.get(chainId),
    depositsOf: (chainId) => byId.get(chainId),
    solverOf: (chainId) => byId.get(chainId),
    refunderOf: (chainId) => byId.get(chainId),
    quoter: required("quoter", (chainId) => byId.get(chainId)),
    deposits: required("deposits", (chainId) => byId.get(chainId)),
    solver: required("solver", (chainId) => byId.get(chainId)),
    refunder: required("refunder", (chainId) => byId.get(chainId)),
    anyAddressKey: (value) => anyAddressKey(value, families),
  };
}
