import type { QuotePort } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { convertAmount } from "../src/pricing/convertAmount.js";
import type { PriceSource } from "../src/pricing/priceSource.js";

/**
 * The network fee of a refund paying `currency` on `chain`, in that currency: the chain's native fee as it is, a
 * token's converted at the current prices (rounded up: the refund never pays its fee out of other deposits).
 * Undefined when a price is missing.
 */
export async function refundFeeIn(
  chain: QuotePort,
  currency: string,
  deps: { registry: ChainRegistry; prices: PriceSource },
): Promise<bigint | undefined> {
  const fee = await chain.estimateFee("refund", currency);
  if (currency === chain.nativeCurrency) return fee;
  const nativeCurrency = deps.registry.currency(chain.chain.id, chain.nativeCurrency)!;
  const token = deps.registry.currency(chain.chain.id, currency);
  const [nativePrice, tokenPrice] = await Promise.all([
    deps.prices.usdPriceE18(nativeCurrency),
    token && deps.prices.usdPriceE18(token),
  ]);
  if (!token || !nativePrice || !tokenPrice) return undefined;
  return convertAmount(
    fee,
    { decimals: nativeCurrency.decimals, usdPriceE18: nativePrice },
    { decimals: token.decimals, usdPriceE18: tokenPrice },
    true,
  );
}
