import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { chainsOfFamily } from "../../src/chains/familyOfChain.js";
import type { Shutdown } from "../../src/runtime/shutdown.js";
import { type AnyFamilyFactories, allFamilyFactories } from "./factories.js";
import type { IndexerContext } from "./familyFactories.js";

/**
 * Every family's (of `families`) indexer role over its own of `chains` (a family without chains starts none), as npm start and the
 * test stack run them beside the other roles: one after another, stopped in reverse; a start that fails stops the
 * ones before it.
 */
export async function startFamilyIndexers(
  chains: readonly ChainConfig[],
  context: Omit<IndexerContext<ChainConfig>, "vmType" | "chains">,
  families: readonly AnyFamilyFactories[] = allFamilyFactories(),
): Promise<Shutdown> {
  const stops: Shutdown[] = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    for (const factories of families) {
      const familyChains = chainsOfFamily(chains, factories.vmType);
      if (familyChains.length === 0) continue;
      stops.push(await factories.indexer.start({ ...context, vmType: factories.vmType, chains: familyChains }));
    }
    return stop;
  } catch (error) {
    await stop();
    throw error;
  }
}
