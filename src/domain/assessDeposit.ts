import type { FailReason } from "./failReasons.js";
import { divCeil } from "./money.js";

export type DepositTerms = {
  originChainId: number;
  originCurrency: string;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  deadline: Date;
  latePaymentSlippageBps: bigint | null;
  /** A strict deposit address: anything short of the quoted input fails, whatever the trade type. */
  strict?: boolean;
};

export type DepositAssessment = { fill: true; amountOut: bigint } | { fill: false; failReason: FailReason };

/**
 * What a deposit entitles the user to. EXACT_INPUT scales the output with what was paid (an overpayment
 * is filled in full); EXACT_OUTPUT pays exactly the quoted output once the quoted input arrived. A deposit
 * after the deadline is refunded (ORDER_EXPIRED) unless the quote allowed late payment and the output
 * re-priced now (`repricedAmountOut`, from the caller's current prices) stays within that tolerance. A strict
 * deposit address refuses any underpayment (refunded); an overpayment fills as above (EXACT_INPUT: all of it).
 */
export function assessDeposit(
  terms: DepositTerms,
  deposit: { chainId: number; currency: string; amount: bigint; timestamp: bigint },
  repricedAmountOut?: bigint,
): DepositAssessment {
  if (deposit.chainId !== terms.originChainId) return { fill: false, failReason: "DEPOSIT_CHAIN_MISMATCH" };
  if (deposit.currency.toLowerCase() !== terms.originCurrency.toLowerCase())
    return { fill: false, failReason: "INCORRECT_DEPOSIT_CURRENCY" };
  const onTime = entitlement(terms, deposit.amount);
  if (!onTime.fill || !paidAfterDeadline(deposit.timestamp, terms.deadline)) return onTime;
  if (terms.latePaymentSlippageBps === null || repricedAmountOut === undefined)
    return { fill: false, failReason: "ORDER_EXPIRED" };
  const floor = divCeil(onTime.amountOut * (10_000n - terms.latePaymentSlippageBps), 10_000n);
  if (repricedAmountOut < floor || repricedAmountOut <= 0n) return { fill: false, failReason: "ORDER_EXPIRED" };
  return { fill: true, amountOut: repricedAmountOut < onTime.amountOut ? repricedAmountOut : onTime.amountOut };
}

function entitlement(terms: DepositTerms, deposited: bigint): DepositAssessment {
  if (terms.strict && deposited < terms.amountIn)
    return { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  if (terms.tradeType === "EXACT_OUTPUT") {
    return deposited >= terms.amountIn
      ? { fill: true, amountOut: terms.amountOut }
      : { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  }
  const amountOut = (terms.amountOut * deposited) / terms.amountIn;
  return amountOut >= terms.minimumAmountOut && amountOut > 0n
    ? { fill: true, amountOut }
    : { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
}

/** Whether a deposit mined at `timestamp` (block time, seconds) came after the order's deadline. */
export const paidAfterDeadline = (timestamp: bigint, deadline: Date): boolean =>
  timestamp * 1000n > BigInt(deadline.getTime());
