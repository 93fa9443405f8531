import type { AppliedDeposit } from "../schema/requestDeposits.js";
import type { DepositPort } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { isCrossfillError } from "../src/domain/errors.js";
import { depositUsdValueE18 } from "./depositUsdValueE18.js";

/** The confirmations a deposit must wait: its chain's tier for its USD value or its amount. */
export async function requiredDepositConfirmations(
  deposit: Pick<AppliedDeposit, "currency" | "amount">,
  deps: { deposits: DepositPort; registry: ChainRegistry; prices: PriceSource },
): Promise<number> {
  const { deposits } = deps;
  const usd = await depositUsdValueE18(
    { chainId: deposits.chain.id, currency: deposit.currency, amount: deposit.amount },
    deps,
  ).catch((error: unknown) => {
    // No fresh price now (PRICE_FETCH_FAILED): the value is unknown for the moment, which the strictest tier covers.
    if (isCrossfillError(error) && error.errorCode === "PRICE_FETCH_FAILED") return undefined;
    throw error;
  });
  // An unpriced currency (usd undefined) reaches every USD tier: its value is unknown.
  return deposits.requiredConfirmations({
    usdE18: usd,
    amount: deposit.amount,
    currency: deps.registry.currency(deposits.chain.id, deposit.currency),
  });
}
