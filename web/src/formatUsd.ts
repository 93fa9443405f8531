/** `digits` kept of a non-negative decimal string's fraction, rounded half up, on the string (no float). */
function roundFraction(whole: string, fraction: string, digits: number): string {
  const scaled = BigInt(`${whole}${fraction.padEnd(digits + 1, "0").slice(0, digits + 1)}`);
  const rounded = (scaled + 5n) / 10n;
  const text = rounded.toString().padStart(digits + 1, "0");
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * A USD amount as money: "$1,234.57"; under a cent, two significant digits ("$0.0042") so a sub-cent fee is not shown
 * as "$0.00"; "-$0.05" for a cost. From the API's decimal string (never through a float).
 */
export function formatUsd(value: string | null | undefined): string {
  if (value === null || value === undefined) return "USD unknown";
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign, whole, fraction = ""] = match;
  const zero = /^0*$/.test(whole + fraction);
  let digits = 2;
  if (/^0+$/.test(whole) && !zero && /^00/.test(fraction.padEnd(2, "0"))) {
    // Leading zeros of the fraction, then two significant digits.
    digits = (/^0*/.exec(fraction)?.[0].length ?? 0) + 2;
  }
  const rounded = roundFraction(whole, fraction, digits);
  const [integer, cents] = rounded.split(".");
  const grouped = BigInt(integer).toLocaleString("en-US");
  return `${sign && !zero ? "-" : ""}$${grouped}.${cents}`;
}
