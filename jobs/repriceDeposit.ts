import type { StoredRequest } from "../schema/requests.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { convertAmount } from "../src/pricing/convertAmount.js";
import type { PriceSource } from "../src/pricing/priceSource.js";

/**
 * The output a deposit buys at today's prices, after the fees the quote charged: what a late payment is
 * measured against. Undefined when either side has no price now.
 */
export async function repriceDeposit(
  request: StoredRequest,
  deposited: bigint,
  deps: { registry: ChainRegistry; prices: PriceSource },
): Promise<bigint | undefined> {
  const currencyIn = deps.registry.currency(request.originChainId, request.originCurrency);
  const currencyOut = deps.registry.currency(request.destinationChainId, request.destinationCurrency);
  if (!currencyIn || !currencyOut) return undefined;
  const [priceIn, priceOut] = await Promise.all([
    deps.prices.usdPriceE18(currencyIn),
    deps.prices.usdPriceE18(currencyOut),
  ]);
  if (!priceIn || !priceOut) return undefined;
  const fees = (request.quote as { fees?: Record<string, { amount?: string } | undefined> }).fees;
  // The service's fee and the integrators' app fees came out of the quoted input, less what a sponsor pays.
  const quotedFee =
    BigInt(fees?.relayer?.amount ?? "0") + BigInt(fees?.app?.amount ?? "0") - BigInt(fees?.subsidized?.amount ?? "0");
  const net = deposited - quotedFee;
  if (net <= 0n) return 0n;
  return convertAmount(
    net,
    { decimals: currencyIn.decimals, usdPriceE18: priceIn },
    { decimals: currencyOut.decimals, usdPriceE18: priceOut },
  );
}
