import type { AppliedDeposit } from "../schema/chainFacts.js";
import type { ChainAdapter } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { usdValueE18 } from "../src/pricing/usdValue.js";

/** The confirmations a deposit must wait: its chain's tier for its USD value. */
export async function requiredDepositConfirmations(
  deposit: Pick<AppliedDeposit, "currency" | "amount">,
  deps: { adapter: ChainAdapter; registry: ChainRegistry; prices: PriceSource },
): Promise<number> {
  const { adapter } = deps;
  const currency = deps.registry.currency(adapter.chain.id, deposit.currency);
  const price = currency && (await deps.prices.usdPriceE18(currency));
  // An unpriced currency gets the strictest tier: its value is unknown.
  const usd = currency && price ? usdValueE18(deposit.amount, currency, price) : 2n ** 255n;
  return adapter.requiredConfirmations(usd);
}
