/** Amounts on the exchange's API are human decimal strings; inside the devnet they are bigint base units. */

const DECIMAL = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

/**
 * "1.5" with 8 decimals → 150000000n; undefined for anything that is not a plain non-negative decimal or has more
 * fraction digits than the token (a transfer never rounds an amount the signer did not sign).
 */
export function parseExchangeAmount(value: string, decimals: number): bigint | undefined {
  const match = DECIMAL.exec(value);
  if (!match) return undefined;
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) return undefined;
  return BigInt(match[1] + fraction.padEnd(decimals, "0"));
}

/** 150000000n with 8 decimals → "1.5", and 0n → "0.0", as the exchange writes amounts. */
export function formatExchangeAmount(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "") || "0";
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}
