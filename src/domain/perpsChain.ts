/**
 * The perps exchange chain: the service-chosen id the spec and the official client use, and the name order data
 * and signed messages carry for it.
 */
export const PERPS_CHAIN_ID = 1337;
export const PERPS_CHAIN_NAME = "hyperliquid";
