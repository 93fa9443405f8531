import type { FailReason } from "./failReasons.js";
import { divCeil } from "./money.js";
import { type OverpaymentRule, overpaidBeyondTolerance } from "./overpaymentRule.js";
import { sameCurrencyId } from "./sameCurrencyId.js";

export type DepositTerms = {
  originChainId: number;
  originCurrency: string;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  deadline: Date;
  latePaymentSlippageBps: bigint | null;
  /** The quote's own slippage: how far a re-priced overpayment may fall below the quoted rate. */
  slippageBps: bigint;
  /** What an EXACT_INPUT deposit past its quoted input buys (overpaymentRuleOf the stored quote). */
  overpayment: OverpaymentRule;
  /** A strict deposit address: anything short of the quoted input fails, whatever the trade type. */
  strict?: boolean;
  /** What of the fill's fixed costs (gas, rent) the user pays, input units (fixedFeesInOf the stored quote). */
  fixedFeesIn: bigint;
};

export type DepositAssessment = { fill: true; amountOut: bigint } | { fill: false; failReason: FailReason };

/**
 * What a deposit entitles the user to. EXACT_INPUT scales the output with what was paid, at the quoted rate up to the
 * overpayment tolerance (an underpayment pays the fill's gas and rent whole; only the rest converts); EXACT_OUTPUT pays exactly the quoted output once the quoted input arrived. Past the tolerance
 * the quoted rate no longer holds: a sponsored quote refunds (INCORRECT_PAYMENT), any other fills the re-priced output
 * (`repricedAmountOut`, the whole deposit at the caller's current prices) when it is within the quote's slippage of
 * the quoted rate, never more than that rate gives, and refunds otherwise (SLIPPAGE). A deposit after the deadline is
 * refunded (ORDER_EXPIRED) unless the quote allowed late payment and the re-priced output stays within that
 * tolerance. A strict deposit address refuses any underpayment (refunded); its overpayment fills as above (EXACT_INPUT:
 * all of it, the spec's rule).
 */
export function assessDeposit(
  terms: DepositTerms,
  deposit: { chainId: number; currency: string; amount: bigint; timestamp: bigint },
  repricedAmountOut?: bigint,
): DepositAssessment {
  if (deposit.chainId !== terms.originChainId) return { fill: false, failReason: "DEPOSIT_CHAIN_MISMATCH" };
  if (!sameCurrencyId(deposit.currency, terms.originCurrency))
    return { fill: false, failReason: "INCORRECT_DEPOSIT_CURRENCY" };
  const atQuotedRate = entitlement(terms, deposit.amount);
  if (!atQuotedRate.fill) return atQuotedRate;
  const late = paidAfterDeadline(deposit.timestamp, terms.deadline);
  const overpaid = overpaidBeyondTolerance(terms, terms.overpayment, deposit.amount);
  if (overpaid && terms.overpayment.beyond === "refund") return { fill: false, failReason: "INCORRECT_PAYMENT" };
  if (!late && !overpaid) return atQuotedRate;
  if (late && terms.latePaymentSlippageBps === null) return { fill: false, failReason: "ORDER_EXPIRED" };
  if (repricedAmountOut === undefined || repricedAmountOut <= 0n)
    return { fill: false, failReason: late ? "ORDER_EXPIRED" : "SLIPPAGE" };
  const within = (bps: bigint) => repricedAmountOut >= divCeil(atQuotedRate.amountOut * (10_000n - bps), 10_000n);
  if (late && !within(terms.latePaymentSlippageBps!)) return { fill: false, failReason: "ORDER_EXPIRED" };
  if (overpaid && !within(terms.slippageBps)) return { fill: false, failReason: "SLIPPAGE" };
  return {
    fill: true,
    amountOut: repricedAmountOut < atQuotedRate.amountOut ? repricedAmountOut : atQuotedRate.amountOut,
  };
}

function entitlement(terms: DepositTerms, deposited: bigint): DepositAssessment {
  if (terms.strict && deposited < terms.amountIn)
    return { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  if (terms.tradeType === "EXACT_OUTPUT") {
    return deposited >= terms.amountIn
      ? { fill: true, amountOut: terms.amountOut }
      : { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  }
  // The fill costs the same gas and rent whatever was paid: an underpayment pays them whole, or a dust deposit makes
  // the solver pay for the fill; past the quoted input they are covered and the rate applies to all of it.
  const fixed = deposited < terms.amountIn ? terms.fixedFeesIn : 0n;
  if (deposited <= fixed) return { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  const amountOut = (terms.amountOut * (deposited - fixed)) / (terms.amountIn - fixed);
  return amountOut >= terms.minimumAmountOut && amountOut > 0n
    ? { fill: true, amountOut }
    : { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
}

/** Whether a deposit mined at `timestamp` (block time, seconds) came after the order's deadline. */
export const paidAfterDeadline = (timestamp: bigint, deadline: Date): boolean =>
  timestamp * 1000n > BigInt(deadline.getTime());
