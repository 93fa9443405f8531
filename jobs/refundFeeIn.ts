import type { QuotePort } from "../src/chains/adapter.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { convertAmount } from "../src/pricing/convertAmount.js";
import type { PriceSource } from "../src/pricing/priceSource.js";

/**
 * What a refund paying `currency` to the (parsed) `recipient` on `chain` costs, in that currency (`fee`): the network
 * fee and whatever opening the recipient's account costs the payer (`rent`, native: a Solana token account's rent, the
 * exchange's activation fee; the refundee names the recipient, so the refundee pays it) — the chain's native fee as it
 * is, a token's converted at the current prices (rounded up: the refund never pays its fee out of other deposits).
 * Undefined when a price is missing.
 */
export async function refundFeeIn(
  chain: QuotePort,
  currency: string,
  recipient: string,
  deps: { registry: ChainRegistry; prices: PriceSource },
): Promise<{ fee: bigint; rent: bigint } | undefined> {
  const [networkFee, rent] = await Promise.all([
    chain.estimateFee("refund", currency),
    chain.payoutRent?.(currency, recipient) ?? 0n,
  ]);
  const fee = networkFee + rent;
  if (currency === chain.nativeCurrency) return { fee, rent };
  const nativeCurrency = deps.registry.currency(chain.chain.id, chain.nativeCurrency)!;
  const token = deps.registry.currency(chain.chain.id, currency);
  const [nativePrice, tokenPrice] = await Promise.all([
    deps.prices.usdPriceE18(nativeCurrency),
    token && deps.prices.usdPriceE18(token),
  ]);
  if (!token || !nativePrice || !tokenPrice) return undefined;
  const converted = convertAmount(
    fee,
    { decimals: nativeCurrency.decimals, usdPriceE18: nativePrice },
    { decimals: token.decimals, usdPriceE18: tokenPrice },
    true,
  );
  return { fee: converted, rent };
}
