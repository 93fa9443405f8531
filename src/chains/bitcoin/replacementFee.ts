const max = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b));

/**
 * The fee a BIP125 replacement of a transaction pays (satoshis): the largest of a quarter more than the fee it
 * replaces, that fee plus 1 sat/vB of the replacement's size (the relay rule a replacement must meet), and the current
 * rate for that size.
 */
export function replacementFee(replaced: { fee: bigint }, vsize: bigint, feeRate: number): bigint {
  return max((replaced.fee * 5n) / 4n, replaced.fee + vsize, BigInt(Math.ceil(Number(vsize) * feeRate)));
}
