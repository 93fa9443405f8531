import { formatAmount, parseDecimal } from "./money.js";
import { type OverpaymentRule, toleratedInput } from "./overpaymentRule.js";

/** One recipient's share as the quote priced it: amounts in the input currency's smallest unit, USD a decimal. */
export type QuotedAppFee = {
  recipient: string;
  bps: string;
  amount: string;
  amountFormatted: string;
  amountUsd: string;
};

/**
 * What each app-fee recipient earned once the request was filled. EXACT_INPUT fills scale the output with what
 * was deposited, so the fees scale the same way (rounded down), but only up to the overpayment tolerance: a deposit
 * past it earns the fees of the tolerated input, never of the whole (a sponsored quote has no tolerance, so its
 * fees never pass what the sponsor agreed to). EXACT_OUTPUT fills pay the quoted output for the quoted input, so the
 * quoted fees are earned as they are. USD stays at the quote's price, scaled likewise.
 */
export function earnedAppFees(
  quoted: readonly QuotedAppFee[],
  terms: { tradeType: "EXACT_INPUT" | "EXACT_OUTPUT"; amountIn: bigint; overpayment: OverpaymentRule },
  deposited: bigint,
  decimals: number,
): QuotedAppFee[] {
  const scales = terms.tradeType === "EXACT_INPUT" && terms.amountIn > 0n;
  const most = toleratedInput(terms.amountIn, terms.overpayment);
  const credited = deposited < most ? deposited : most;
  return quoted.map((fee) => {
    const amount = BigInt(fee.amount);
    const earned = scales ? (amount * credited) / terms.amountIn : amount;
    const usdMicros = amount === 0n ? 0n : (parseDecimal(fee.amountUsd, 6) * earned) / amount;
    return {
      recipient: fee.recipient,
      bps: fee.bps,
      amount: earned.toString(),
      amountFormatted: formatAmount(earned, decimals),
      amountUsd: formatAmount(usdMicros, 6),
    };
  });
}
