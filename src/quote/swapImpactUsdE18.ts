/**
 * The part of a quote's value change its fees do not explain: what the user receives, less what they pay in less the
 * fees they pay (the sponsor's share is theirs to keep). Crossfill prices both sides at the oracle and charges no swap
 * fee, so this is the conversion's rounding — never a spread hidden from `expandedPriceImpact`.
 */
export function swapImpactUsdE18(args: {
  usdIn: bigint;
  usdOut: bigint;
  feesUsd: bigint;
  sponsoredUsd: bigint;
}): bigint {
  return args.usdOut - (args.usdIn - (args.feesUsd - args.sponsoredUsd));
}
