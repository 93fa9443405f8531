/** Amounts are bigint in the smallest unit inside; these convert at the edges, never through floats. */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Parses a non-negative integer string ("1000"), refusing signs, decimals, exponents and hex. */
export function parseUnitsString(value: string): bigint | undefined {
  return /^\d{1,78}$/.test(value) ? BigInt(value) : undefined;
}

/** 1234500 with 6 decimals → "1.2345". */
export function formatAmount(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** "1.2345" with 6 decimals → 1234500n; extra fraction digits are truncated. */
export function parseDecimal(value: string, decimals: number): bigint {
  const match = DECIMAL.exec(value);
  if (!match) throw new Error(`not a decimal number: ${value}`);
  const fraction = (match[2] ?? "").slice(0, decimals).padEnd(decimals, "0");
  return BigInt(match[1] + fraction);
}

/** Integer division rounding up, for amounts the user must pay. */
export function divCeil(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/** Basis points of an amount, rounded down. */
export function bps(amount: bigint, basisPoints: bigint): bigint {
  return (amount * basisPoints) / 10_000n;
}
