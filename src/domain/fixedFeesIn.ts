/**
 * What of the fill's fixed costs — its gas and the rent of a recipient's new account — the user pays, in input units,
 * as a stored quote keeps it (`fixedFeesIn`, src/quote/quotedRequest.ts): an exact-input underpayment pays it whole
 * (assessDeposit). Quotes stored before it had none: 0, they scale as before.
 */
export function fixedFeesInOf(quote: unknown): bigint {
  const stored = (quote ?? {}) as { fixedFeesIn?: string };
  return BigInt(stored.fixedFeesIn ?? "0");
}
