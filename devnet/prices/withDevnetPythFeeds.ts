import type { CurrencyPriceConfig } from "../../src/chains/commonChainFields.js";
import { DEVNET_FEED_IDS } from "./devnetPriceFeeds.js";

type PricedChain = {
  nativeCurrency: { symbol: string };
  currencies?: readonly { symbol: string }[];
  prices?: Readonly<Record<string, CurrencyPriceConfig>>;
};

/**
 * The chains with each currency's Pyth feed id (the devnet Hermes serves Pyth's real ids) in their `prices`, beside
 * what a chain names already (the aggregators its devnet deployed): the chains file npm start hands the service.
 */
export function withDevnetPythFeeds<C extends PricedChain>(chains: readonly C[]): C[] {
  return chains.map((chain) => {
    const prices: Record<string, CurrencyPriceConfig> = { ...chain.prices };
    const symbols = [chain.nativeCurrency.symbol, ...(chain.currencies ?? []).map((currency) => currency.symbol)];
    for (const symbol of symbols) {
      const pythFeedId = DEVNET_FEED_IDS[symbol.toUpperCase()];
      if (pythFeedId) prices[symbol.toUpperCase()] = { ...prices[symbol.toUpperCase()], pythFeedId };
    }
    return { ...chain, prices };
  });
}
