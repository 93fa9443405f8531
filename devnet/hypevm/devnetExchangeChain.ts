import { PERPS_CHAIN_NAME } from "../../src/domain/perpsChain.js";
import { PERPS_CHAIN_ID } from "../../src/domain/reservedChainIds.js";
import { PERPS_USDC_CURRENCY } from "../../src/chains/hypevm/hypevmFamily.js";
import type { DevnetExchange } from "./startDevnetExchange.js";

/**
 * The devnet exchange as the chains file and the manifest describe it: chain 1337 with its API URL, network, the
 * service's depository and solver accounts, perps USDC (the all-zero 16-byte id, 8 decimals) and the spot tokens by
 * token id, and the funded test accounts with their keys (devnet only).
 */
export function devnetExchangeChain(exchange: DevnetExchange) {
  return {
    id: PERPS_CHAIN_ID,
    vmType: "hypevm" as const,
    name: PERPS_CHAIN_NAME,
    displayName: "Devnet perps exchange",
    exchangeUrl: exchange.url,
    network: exchange.network,
    depository: exchange.depository.address,
    solver: exchange.solver.address,
    currencies: [
      { symbol: "USDC", name: "USD Coin (perps)", address: PERPS_USDC_CURRENCY, decimals: 8 },
      ...exchange.tokens.map((token) => ({
        symbol: token.name,
        name: `${token.name} (spot)`,
        address: token.tokenId,
        decimals: token.weiDecimals,
      })),
    ],
    accounts: exchange.accounts.map((account) => ({ address: account.address, privateKey: account.privateKey })),
  };
}
