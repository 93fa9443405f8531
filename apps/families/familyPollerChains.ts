import type pg from "pg";
import type { PollerChain } from "../../indexers/startPollers.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { FAMILY_FACTORIES } from "./factories.js";

/** The pollers of those among `chains` whose family's facts a poller reads (Bitcoin's, not Ponder's EVM chains). */
export function familyPollerChains(chains: readonly ChainConfig[], pool: pg.Pool): PollerChain[] {
  return chains.flatMap((chain) => {
    const factories = FAMILY_FACTORIES[chain.vmType];
    const pollerChain = "pollerChain" in factories ? factories.pollerChain : undefined;
    return pollerChain ? [(pollerChain as (chain: ChainConfig, pool: pg.Pool) => PollerChain)(chain, pool)] : [];
  });
}
