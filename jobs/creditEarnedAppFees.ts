import { creditAppFees } from "../schema/appFeeLedger.js";
import { listRequestDeposits } from "../schema/chainFacts.js";
import { getRequest } from "../schema/requests.js";
import type { Queryable } from "../schema/queryable.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { type QuotedAppFee, earnedAppFees } from "../src/domain/earnedAppFees.js";
import { overpaymentRuleOf } from "../src/domain/overpaymentRule.js";

/**
 * Credits a request's app-fee recipients with what the fill earned them, on the origin chain in the input
 * currency (where the deposit holding them sits). Called in the transaction that records the success; keyed by
 * (request, recipient), so running it again credits nothing.
 */
export async function creditEarnedAppFees(db: Queryable, requestId: string, registry: ChainRegistry): Promise<number> {
  const request = await getRequest(db, requestId);
  const quoted = (request?.quote as { appFees?: QuotedAppFee[] } | null)?.appFees ?? [];
  if (!request || quoted.length === 0) return 0;
  const deposits = await listRequestDeposits(db, requestId);
  const deposited =
    deposits.length > 0 ? deposits.reduce((sum, deposit) => sum + deposit.amount, 0n) : request.amountIn;
  const decimals = registry.currency(request.originChainId, request.originCurrency)?.decimals ?? 0;
  return creditAppFees(db, {
    requestId,
    chainId: request.originChainId,
    currency: request.originCurrency,
    fees: earnedAppFees(quoted, { ...request, overpayment: overpaymentRuleOf(request.quote) }, deposited, decimals),
  });
}
