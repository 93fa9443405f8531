/**
 * The perps exchange chain: the service-chosen id the spec and the official client use (a reserved id, written in
 * reservedChainIds.ts), and the name order data and signed messages carry for it.
 */
export { PERPS_CHAIN_ID } from "./reservedChainIds.js";
export const PERPS_CHAIN_NAME = "hyperliquid";
