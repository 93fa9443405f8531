import { type QuotedAppFee, earnedAppFees } from "../domain/earnedAppFees.js";
import { overpaymentRuleOf } from "../domain/overpaymentRule.js";
import type { RequestView } from "../../schema/requestsQuery.js";

export type RequestAppFee = QuotedAppFee;

/**
 * A request's app fees: `quoted` as the quote priced them, `actual` what the recipients earned (by the rule the
 * ledger credits them with, `earnedAppFees`), present once the request succeeded.
 */
export function requestAppFees(
  view: Pick<RequestView, "status" | "tradeType" | "amountIn" | "quote">,
  deposited: bigint | null,
  decimals: number,
): { quoted: RequestAppFee[]; actual: RequestAppFee[] } {
  const quoted = (view.quote as { appFees?: QuotedAppFee[] } | null)?.appFees ?? [];
  if (view.status !== "success" || quoted.length === 0) return { quoted, actual: [] };
  return {
    quoted,
    actual: earnedAppFees(
      quoted,
      { ...view, overpayment: overpaymentRuleOf(view.quote) },
      deposited ?? view.amountIn,
      decimals,
    ),
  };
}
