import { appFeeBalances } from "../../schema/appFeeClaims.js";
import type { Queryable } from "../../schema/queryable.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { PriceSource } from "../pricing/priceSource.js";
import { usdValueE18 } from "../pricing/usdValue.js";
import { parseEvmAddress } from "./parseEvmAddress.js";
import { type AmountObject, amountObject, formatUsd } from "../quote/amountObject.js";

/**
 * GET /app-fees/{wallet}/balances: what the wallet earned and has not claimed, per chain and currency, as Amount
 * objects valued at today's prices (a currency without a price counts 0 USD). There are no fast fills here, so
 * nothing is outstanding and the whole balance is available.
 */
export async function readAppFeeBalances(
  db: Queryable,
  deps: { registry: ChainRegistry; prices: PriceSource },
  wallet: string,
): Promise<{
  balances: AmountObject[];
  totalBalanceUsd: number;
  outstandingFastFillBalanceUsd: number;
  availableBalanceUsd: number;
}> {
  const parsed = parseEvmAddress(wallet, "wallet");
  let totalUsdE18 = 0n;
  const balances: AmountObject[] = [];
  for (const row of await appFeeBalances(db, parsed)) {
    const currency = deps.registry.currency(row.chainId, row.currency);
    // Earned on a chain since removed from the configuration: not claimable here, so not shown.
    if (!currency) continue;
    const price = (await deps.prices.usdPriceE18(currency).catch(() => undefined)) ?? 0n;
    totalUsdE18 += usdValueE18(row.amount, currency, price);
    balances.push(amountObject(currency, row.amount, price));
  }
  // The official client types these three as numbers; they are display values, never used as amounts.
  const totalBalanceUsd = Number(formatUsd(totalUsdE18));
  return { balances, totalBalanceUsd, outstandingFastFillBalanceUsd: 0, availableBalanceUsd: totalBalanceUsd };
}
