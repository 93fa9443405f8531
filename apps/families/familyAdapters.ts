import type { ChainRoles } from "../../src/chains/adapter.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { type AdapterFactories, type ChainAdapters, createChainAdapters } from "../../src/chains/chainAdapters.js";
import { type AdapterKeys, type AnyFamilyFactories, type FamilyKeys, allFamilyFactories } from "./factories.js";
import type { AdapterPorts, KeyRole } from "./familyFactories.js";

/**
 * The keys a role holds of every family of `families` (the gateway: none of the worker's signing keys), from each
 * family's own entry of `keys`.
 */
export function roleAdapterKeys(
  keys: FamilyKeys,
  role: KeyRole,
  families: readonly AnyFamilyFactories[] = allFamilyFactories(),
): AdapterKeys {
  const byFamily = keys as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    families.map((factories) => [factories.vmType, factories.roleKeys(byFamily[factories.vmType], role)]),
  ) as AdapterKeys;
}

/**
 * The adapters of the configured chains, each made by its family's factory (among `families`) with that family's
 * keys (a family without keys gets its adapter's defaults: Bitcoin's refuses to sign). `ports.pool` tells deposit
 * addresses apart.
 */
export function familyAdapters(
  chains: readonly ChainConfig[],
  keys: AdapterKeys,
  ports: AdapterPorts = {},
  families: readonly AnyFamilyFactories[] = allFamilyFactories(),
): ChainAdapters {
  const byFamily = keys as Readonly<Record<string, unknown>>;
  return createChainAdapters(
    chains,
    Object.fromEntries(
      families.map((factories) => [
        factories.vmType,
        // The factory of the chain's own vmType: it reads only chains and keys of its family.
        (chain: ChainConfig): ChainRoles => factories.adapter(chain, byFamily[factories.vmType] ?? {}, ports),
      ]),
    ) as AdapterFactories,
  );
}
