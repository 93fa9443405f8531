import { FAMILY_KEY_SCHEMAS } from "../../apps/families/factories.js";
import type { FamilyFactories, StartedDevnet } from "../../apps/families/familyFactories.js";
import type { DevnetPriceBook } from "../../devnet/prices/devnetPriceBook.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { type Config, parseConfig, parseFamilyKeys } from "../../src/config.js";

/**
 * The DEVNET_* settings of a test's devnets: `env` as npm start would read it, Bitcoin mined on demand unless it says
 * otherwise.
 */
export function testDevnetConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ DEVNET_BITCOIN_BLOCK_TIME: "0", ...env });
}

/**
 * A family's devnet started by its own starter (the one npm start runs), on free ports and with the keys the devnet
 * brings (no operator's: the test process's environment is not read); with the devnet's price book, a family with
 * price aggregators deploys and feeds them.
 */
export async function startFamilyDevnet<K, D>(
  factories: FamilyFactories<ChainConfig, K, unknown, D>,
  config: Config = testDevnetConfig(),
  priceBook?: DevnetPriceBook,
): Promise<StartedDevnet<K, D>> {
  const keys = parseFamilyKeys({}, FAMILY_KEY_SCHEMAS) as Record<string, unknown>;
  return factories.devnet({
    config,
    keys: keys[factories.vmType] as K,
    freePorts: true,
    ...(priceBook ? { priceBook } : {}),
  });
}
