import type { FailReason } from "./failReasons.js";

export type DepositTerms = {
  originChainId: number;
  originCurrency: string;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
};

export type DepositAssessment = { fill: true; amountOut: bigint } | { fill: false; failReason: FailReason };

/**
 * What a deposit entitles the user to. EXACT_INPUT scales the output with what was paid (an overpayment
 * is filled in full); EXACT_OUTPUT pays exactly the quoted output once the quoted input arrived.
 */
export function assessDeposit(terms: DepositTerms, deposit: { chainId: number; currency: string; amount: bigint }): DepositAssessment {
  if (deposit.chainId !== terms.originChainId) return { fill: false, failReason: "DEPOSIT_CHAIN_MISMATCH" };
  if (deposit.currency.toLowerCase() !== terms.originCurrency.toLowerCase()) return { fill: false, failReason: "INCORRECT_DEPOSIT_CURRENCY" };
  if (terms.tradeType === "EXACT_OUTPUT") {
    return deposit.amount >= terms.amountIn
      ? { fill: true, amountOut: terms.amountOut }
      : { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  }
  const amountOut = (terms.amountOut * deposit.amount) / terms.amountIn;
  return amountOut >= terms.minimumAmountOut && amountOut > 0n
    ? { fill: true, amountOut }
    : { fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
}
