import type { ChainAvailability } from "../../src/chains/createChainAvailability.js";

/** A chain the operator left open and whose blocks come on time: what availability answers by default. */
export const OPEN_CHAIN_AVAILABILITY: ChainAvailability = {
  disabled: false,
  depositEnabled: true,
  partialDisableLimitUsd: null,
  blockProductionLagging: false,
  reason: null,
  solverCurrencies: [],
};
