/**
 * The name order data and signed messages carry for the perps exchange chain (its id, PERPS_CHAIN_ID, is a reserved
 * id in reservedChainIds.ts).
 */
export const PERPS_CHAIN_NAME = "hyperliquid";
