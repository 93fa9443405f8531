import type { AppliedDeposit } from "../schema/requestDeposits.js";
import type { DepositPort } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { depositUsdValueE18 } from "./depositUsdValueE18.js";

/** The confirmations a deposit must wait: its chain's tier for its USD value. */
export async function requiredDepositConfirmations(
  deposit: Pick<AppliedDeposit, "currency" | "amount">,
  deps: { deposits: DepositPort; registry: ChainRegistry; prices: PriceSource },
): Promise<number> {
  const { deposits } = deps;
  const usd = await depositUsdValueE18(
    { chainId: deposits.chain.id, currency: deposit.currency, amount: deposit.amount },
    deps,
  );
  // An unpriced currency gets the strictest tier: its value is unknown.
  return deposits.requiredConfirmations(usd ?? 2n ** 255n);
}
