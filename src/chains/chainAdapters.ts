import type { ChainRoles, DepositPort, QuotePort, RefundPort, SolverPort, VmType } from "./adapter.js";
import type { ChainConfig } from "./chainConfig.js";
import { anyAddressKey } from "./vmFamilies.js";

/**
 * How each VM family's adapter is made: the roles it offers for a chain. The composition root supplies them with
 * the family's keys. A family with no factory gets no adapter: its chains are listed and indexed, never quoted.
 */
export type AdapterFactories = {
  [vm in VmType]?: (chain: Extract<ChainConfig, { vmType: vm }>) => ChainRoles;
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

type RoleIndex = { [R in ChainRoleName]: Map<number, RolePorts[R]> };

/** The throwing accessor of a role: a chain reached without it is a programming error, named. */
function required<R extends ChainRoleName>(index: RoleIndex, role: R): (chainId: number) => RolePorts[R] {
  return (chainId) => {
    const port = index[role].get(chainId);
    if (!port) throw new Error(`chain ${chainId} has no ${role} role (no adapter, or its family offers none)`);
    return port as RolePorts[R];
  };
}

/** Each configured chain's roles, made by the factory of its `vmType` and indexed role by role. */
export function createChainAdapters(chains: readonly ChainConfig[], factories: AdapterFactories): ChainAdapters {
  const index: RoleIndex = { quoter: new Map(), deposits: new Map(), solver: new Map(), refunder: new Map() };
  for (const chain of chains) {
    // The factory of the chain's own vmType: it reads only chains of its family.
    const roles = (factories[chain.vmType] as ((chain: ChainConfig) => ChainRoles) | undefined)?.(chain);
    if (!roles) continue;
    index.quoter.set(chain.id, roles.quoter);
    if (roles.deposits) index.deposits.set(chain.id, roles.deposits);
    if (roles.solver) index.solver.set(chain.id, roles.solver);
    if (roles.refunder) index.refunder.set(chain.id, roles.refunder);
  }
  const quoters = [...index.quoter.values()];
  const families = [...new Map(quoters.map((quoter) => [quoter.vmType, quoter])).values()];
  return {
    all: (role) => [...index[role].values()] as RolePorts[typeof role][],
    quoterOf: (chainId) => index.quoter.get(chainId),
    depositsOf: (chainId) => index.deposits.get(chainId),
    solverOf: (chainId) => index.solver.get(chainId),
    refunderOf: (chainId) => index.refunder.get(chainId),
    quoter: required(index, "quoter"),
    deposits: required(index, "deposits"),
    solver: required(index, "solver"),
    refunder: required(index, "refunder"),
    anyAddressKey: (value) => anyAddressKey(value, families),
  };
}
