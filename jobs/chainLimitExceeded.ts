import { listChainSwitches } from "../schema/chainSwitches.js";
import type { StoredRequest } from "../schema/requests.js";
import type { Queryable } from "../schema/queryable.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { formatAmount, parseDecimal } from "../src/domain/money.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { depositUsdValueE18 } from "./depositUsdValueE18.js";

/**
 * Why a deposit is over what its chains take for now (an operator's partial disable, `crossfill chains`), judged on
 * the amount actually paid: the quote was checked on the quoted amount only. Undefined when within every limit. An
 * unpriced input counts as over any limit: its value is unknown.
 */
export async function chainLimitExceeded(
  db: Queryable,
  request: Pick<StoredRequest, "originChainId" | "destinationChainId" | "originCurrency">,
  deposited: bigint,
  deps: { registry: ChainRegistry; prices: PriceSource },
): Promise<string | undefined> {
  const limited = (await listChainSwitches(db)).filter(
    (chain) =>
      chain.partialDisableLimitUsd !== null &&
      (chain.chainId === request.originChainId || chain.chainId === request.destinationChainId),
  );
  if (limited.length === 0) return undefined;
  const usd = await depositUsdValueE18(
    { chainId: request.originChainId, currency: request.originCurrency, amount: deposited },
    deps,
  );
  for (const chain of limited) {
    if (usd !== undefined && usd <= parseDecimal(chain.partialDisableLimitUsd!, 18)) continue;
    return `chain ${chain.chainId} takes up to ${chain.partialDisableLimitUsd} USD for now; the deposit is worth ${usd === undefined ? "an unknown amount" : `${formatAmount(usd, 18)} USD`}`;
  }
  return undefined;
}
