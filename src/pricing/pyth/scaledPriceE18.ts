/**
 * A fixed-point price `value × 10^exponent` (Pyth's `price`/`expo`, an aggregator's answer with `-decimals`) as USD
 * scaled by 1e18, in integers: digits below 1e-18 are dropped, never rounded up.
 */
export function scaledPriceE18(value: bigint, exponent: number): bigint {
  const shift = 18 + exponent;
  return shift >= 0 ? value * 10n ** BigInt(shift) : value / 10n ** BigInt(-shift);
}
