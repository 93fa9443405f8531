import { parseDecimal } from "./money.js";

export type ConfirmationTier = { minUsd: string; blocks: number };

/** Blocks a deposit worth `usdE18` (USD scaled by 1e18) must wait: the strictest tier it reaches, else none. */
export function requiredConfirmations(tiers: readonly ConfirmationTier[], usdE18: bigint): number {
  let blocks = 0;
  for (const tier of tiers) if (usdE18 >= parseDecimal(tier.minUsd, 18) && tier.blocks > blocks) blocks = tier.blocks;
  return blocks;
}
