import { parseDecimal } from "./money.js";

/**
 * A confirmation tier of a chain: `blocks` for deposits that reach it — worth `minUsd` or more, or at least its
 * currency's `minAmounts` entry (decimal, in the currency's own units, by symbol: the spec's per-currency threshold of
 * the origin amount, which needs no price). A tier with neither applies to every deposit.
 */
export type ConfirmationTier = { blocks: number; minUsd?: string; minAmounts?: Record<string, string> };

/** What a deposit's tier is decided by; `usdE18` undefined when its value is unknown (no price). */
export type DepositValue = {
  usdE18: bigint | undefined;
  amount: bigint;
  /** The deposited currency as the chain lists it; undefined for one it does not list. */
  currency: { symbol: string; decimals: number } | undefined;
};

function reaches(tier: ConfirmationTier, value: DepositValue): boolean {
  if (tier.minUsd === undefined && tier.minAmounts === undefined) return true;
  // An unknown value reaches every USD tier: the strictest rule covers what cannot be priced.
  if (tier.minUsd !== undefined && (value.usdE18 === undefined || value.usdE18 >= parseDecimal(tier.minUsd, 18)))
    return true;
  const minAmount = value.currency && tier.minAmounts?.[value.currency.symbol];
  return minAmount !== undefined && value.amount >= parseDecimal(minAmount, value.currency!.decimals);
}

/** Blocks a deposit must wait: the strictest tier it reaches, else none. */
export function requiredConfirmations(tiers: readonly ConfirmationTier[], value: DepositValue): number {
  let blocks = 0;
  for (const tier of tiers) if (tier.blocks > blocks && reaches(tier, value)) blocks = tier.blocks;
  return blocks;
}
