import type { AppliedDeposit } from "../schema/chainFacts.js";
import type { ChainAdapter, DepositCheck } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { usdValueE18 } from "../src/pricing/usdValue.js";
import type { PriceSource } from "../src/pricing/priceSource.js";

/** Whether a deposit may be filled: its chain's finality rule for its USD value, then the node's word on it. */
export async function checkDeposit(
  deposit: AppliedDeposit,
  deps: { adapter: ChainAdapter; registry: ChainRegistry; prices: PriceSource },
): Promise<DepositCheck> {
  const { adapter } = deps;
  const currency = deps.registry.currency(adapter.chain.id, deposit.currency);
  const price = currency && (await deps.prices.usdPriceE18(currency));
  // An unpriced currency gets the strictest tier: its value is unknown.
  const usd = currency && price ? usdValueE18(deposit.amount, currency, price) : 2n ** 255n;
  return adapter.checkDeposit(deposit, adapter.requiredConfirmations(usd));
}
