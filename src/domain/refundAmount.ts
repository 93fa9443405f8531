import type { RefundFailReason } from "./failReasons.js";

/**
 * What a refund pays back: the deposit less the refund's own gas. Nothing when the gas eats the deposit
 * (NEGATIVE_NEW_AMOUNT_AFTER_FEES), or when the refund would return less than it burns in gas
 * (AMOUNT_TOO_LOW_TO_REFUND): both are left to an operator.
 */
export function refundAmount(
  deposited: bigint,
  gasCost: bigint,
): { amount: bigint } | { refundFailReason: RefundFailReason } {
  const amount = deposited - gasCost;
  if (amount <= 0n) return { refundFailReason: "NEGATIVE_NEW_AMOUNT_AFTER_FEES" };
  if (amount < gasCost) return { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" };
  return { amount };
}
