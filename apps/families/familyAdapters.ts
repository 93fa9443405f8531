import type { ChainRoles } from "../../src/chains/adapter.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { type AdapterFactories, type ChainAdapters, createChainAdapters } from "../../src/chains/chainAdapters.js";
import { type AdapterKeys, type FamilyKeys, allFamilyFactories } from "./factories.js";
import type { AdapterPorts, KeyRole } from "./familyFactories.js";

/** The keys a role holds of every family (the gateway: none of the worker's signing keys). */
export function roleAdapterKeys(keys: FamilyKeys, role: KeyRole): AdapterKeys {
  return Object.fromEntries(
    allFamilyFactories().map((factories) => [
      factories.vmType,
      // Each family's roleKeys reads only its own keys.
      (factories.roleKeys as (keys: unknown, role: KeyRole) => unknown)(keys[factories.vmType], role),
    ]),
  ) as AdapterKeys;
}

/**
 * The adapters of the configured chains, each made by its family's factory with that family's keys (a family
 * without keys gets its adapter's defaults: Bitcoin's refuses to sign). `ports.pool` tells deposit addresses apart.
 */
export function familyAdapters(
  chains: readonly ChainConfig[],
  keys: AdapterKeys,
  ports: AdapterPorts = {},
): ChainAdapters {
  return createChainAdapters(
    chains,
    Object.fromEntries(
      allFamilyFactories().map((factories) => [
        factories.vmType,
        (chain: ChainConfig) =>
          // The factory of the chain's own vmType: it reads only chains and keys of its family.
          (factories.adapter as (chain: ChainConfig, keys: unknown, ports: AdapterPorts) => ChainRoles)(
            chain,
            keys[factories.vmType] ?? {},
            ports,
          ),
      ]),
    ) as AdapterFactories,
  );
}
