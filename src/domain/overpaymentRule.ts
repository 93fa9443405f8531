/**
 * What an EXACT_INPUT deposit larger than its quote buys. Up to `toleranceBps` over the quoted input it fills at the
 * quoted rate (a wallet rounding up, a fee-on-top token); past that, the quote's price was never offered for that size:
 * `reprice` fills the whole deposit at today's prices (never better than the quoted rate, within the quote's slippage)
 * or refunds it, `refund` refunds it outright. A sponsored quote has no tolerance and refunds: the sponsor agreed to
 * the fees of the quoted input, not of whatever is paid.
 */
export type OverpaymentRule = { toleranceBps: bigint; beyond: "reprice" | "refund" };

/** The default tolerance over an EXACT_INPUT quote's input that still fills at the quoted rate (config's default). */
export const DEFAULT_OVERPAYMENT_TOLERANCE_BPS = 100n;

/**
 * The rule a stored quote was made under (src/quote/createQuote keeps `overpaymentToleranceBps` in it). Quotes stored
 * before it had none: no tolerance; one with a sponsor refunds, whenever it was made.
 */
export function overpaymentRuleOf(quote: unknown): OverpaymentRule {
  const stored = (quote ?? {}) as { sponsor?: unknown; overpaymentToleranceBps?: string };
  if (stored.sponsor) return { toleranceBps: 0n, beyond: "refund" };
  return { toleranceBps: BigInt(stored.overpaymentToleranceBps ?? "0"), beyond: "reprice" };
}

/** The most of a deposit an EXACT_INPUT quote's rate applies to: its input plus the tolerance, rounded down. */
export function toleratedInput(amountIn: bigint, rule: OverpaymentRule): bigint {
  return (amountIn * (10_000n + rule.toleranceBps)) / 10_000n;
}

/** Whether a deposit goes past what the quote's rate covers (EXACT_OUTPUT: never, it pays a fixed output). */
export function overpaidBeyondTolerance(
  terms: { tradeType: "EXACT_INPUT" | "EXACT_OUTPUT"; amountIn: bigint },
  rule: OverpaymentRule,
  deposited: bigint,
): boolean {
  return terms.tradeType === "EXACT_INPUT" && deposited > toleratedInput(terms.amountIn, rule);
}
