import type pg from "pg";
import type { PollerChain } from "../../indexers/startPollers.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { chainsOfFamily } from "../../src/chains/familyOfChain.js";
import { type AnyFamilyFactories, allFamilyFactories } from "./factories.js";

/**
 * The pollers of those among `chains` whose family (among `families`) has its facts read by a poller (Bitcoin's, not
 * Ponder's EVM chains).
 */
export function familyPollerChains(
  chains: readonly ChainConfig[],
  pool: pg.Pool,
  families: readonly AnyFamilyFactories[] = allFamilyFactories(),
): PollerChain[] {
  return families.flatMap((factories) =>
    factories.pollerChain
      ? chainsOfFamily(chains, factories.vmType).map((chain) => factories.pollerChain!(chain, pool))
      : [],
  );
}
