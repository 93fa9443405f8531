import type { BaseChainConfig } from "../src/chains/chainFamily.js";
import type { Config } from "../src/config.js";
import type { PriceSettings } from "../src/pricing/priceSettings.js";
import { rolePrices } from "../src/rolePrices.js";

/**
 * The devnet's live price layer (npm start, the test stack's `livePrices`): its Hermes first, then the aggregators the
 * chains file names (the EVM devnet's), each reading the feeds the chains name, as `PRICE_SOURCES=pyth,aggregator`
 * with `PYTH_HERMES_URL` would in production.
 */
export function devnetPriceSettings(
  config: Config,
  hermesUrl: string,
  chains: readonly BaseChainConfig[],
): PriceSettings {
  return rolePrices({ ...config, PRICE_SOURCES: ["pyth", "aggregator"], PYTH_HERMES_URL: hermesUrl }, "dev", chains)!;
}
