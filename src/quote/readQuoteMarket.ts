import type { QuotePort } from "../chains/adapter.js";
import type { Currency } from "../chains/chainRegistry.js";
import { type NativeConversion, nativeConversionOf } from "../domain/nativeConversion.js";
import type { PriceObservation } from "../pricing/priceObservation.js";
import { quotePrices } from "./quotePrices.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import { type RequestKind, requestKindOf } from "./requestKindOf.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** What a quote is priced on: both chains' adapters and natives, the prices, the network fees, the user's account. */
export type QuoteMarket = {
  origin: QuotePort;
  destination: QuotePort;
  originNative: Currency;
  destinationNative: Currency;
  kind: RequestKind;
  conversion: NativeConversion | undefined;
  /** What the solver spends: the output, or the input it converts (a wrap or unwrap). */
  fillCurrency: Currency;
  priceIn: bigint;
  priceOut: bigint;
  priceDestinationNative: bigint;
  priceOriginNative: bigint;
  /** The observations the input and output prices came from: the stored request keeps them. */
  observedIn: PriceObservation;
  observedOut: PriceObservation;
  fillGasCost: bigint;
  /** The rent the fill pays to open the recipient's account (destination native; 0 when it opens none). */
  fillRentCost: bigint;
  originGasFee: bigint;
  depositAccount: { balance: bigint; allowance: bigint };
};

/** Reads, at once, everything a quote's price depends on. */
export async function readQuoteMarket(deps: QuoteEngineDeps, request: QuoteRequest): Promise<QuoteMarket> {
  const { currencyIn, currencyOut, originChain, destinationChain } = request;
  const origin = deps.adapters.quoter(originChain.id);
  const destination = deps.adapters.quoter(destinationChain.id);
  const destinationNative = deps.registry.currency(destinationChain.id, destination.nativeCurrency)!;
  const originNative = deps.registry.currency(originChain.id, origin.nativeCurrency)!;

  const kind = requestKindOf({ ...request, wrappedNative: deps.registry.wrappedNative(originChain.id) });
  // A wrap or unwrap is filled by converting the input currency (one chain): the solver spends that, not the output.
  const conversion = nativeConversionOf(kind.requestType);
  const fillCurrency = conversion ? currencyIn : currencyOut;
  const [prices, fillGasCost, fillRentCost, originGasFee, depositAccount] = await Promise.all([
    // All four in one read of the price layer: one round trip per source at most, none while its prices are fresh.
    quotePrices(deps.prices, [currencyIn, currencyOut, destinationNative, originNative]),
    destination.estimateFee("fill", fillCurrency.address, request.calls.length, conversion),
    destination.payoutRent?.(fillCurrency.address, request.recipient) ?? 0n,
    origin.estimateFee("deposit", currencyIn.address),
    origin.readDepositAccount(request.user, currencyIn.address),
  ]);
  const [observedIn, observedOut, observedDestinationNative, observedOriginNative] = prices;
  return {
    origin,
    destination,
    originNative,
    destinationNative,
    kind,
    conversion,
    fillCurrency,
    priceIn: observedIn.priceE18,
    priceOut: observedOut.priceE18,
    priceDestinationNative: observedDestinationNative.priceE18,
    priceOriginNative: observedOriginNative.priceE18,
    observedIn,
    observedOut,
    fillGasCost,
    fillRentCost,
    originGasFee,
    depositAccount,
  };
}
