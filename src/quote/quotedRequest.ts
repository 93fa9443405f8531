import type { QuotedDepositAddress } from "../../schema/depositAddresses.js";
import type { NewRequest } from "../../schema/requests.js";
import { DEFAULT_OVERPAYMENT_TOLERANCE_BPS } from "../domain/overpaymentRule.js";
import { FEE_COMPONENTS } from "../domain/sponsorFees.js";
import { toStoredFeeSponsorship } from "../domain/storedFeeSponsorship.js";
import type { PriceObservation } from "../pricing/priceObservation.js";
import { formatAmount } from "../domain/money.js";
import type { PriceQuote } from "./priceQuote.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import type { quoteResponse } from "./quoteResponse.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** The request a quote stores: its terms, its order, and what of the answer its fill, records and sponsor draw read. */
export function quotedRequest(args: {
  deps: QuoteEngineDeps;
  request: QuoteRequest;
  market: QuoteMarket;
  price: PriceQuote;
  order: { order: NewRequest["orderData"]; orderId: string; requestId: string; deadline: number };
  slippageBps: bigint;
  response: ReturnType<typeof quoteResponse>;
  sponsor: string | undefined;
  depositAddress: QuotedDepositAddress | undefined;
  apiKeyId: string | undefined;
  /** The caller's fixed-bps oracle pricing, when it has one. */
  oracleBps?: bigint;
}): NewRequest {
  const { deps, request, price, order, response, sponsor, depositAddress } = args;
  const { currencyIn, currencyOut, originChain, destinationChain } = request;
  const sponsored = price.sponsored;
  return {
    id: order.requestId,
    orderId: order.orderId,
    requestType: args.market.kind.requestType,
    tradeType: request.tradeType,
    user: request.user,
    recipient: request.recipient,
    refundTo: request.refundTo,
    originChainId: originChain.id,
    destinationChainId: destinationChain.id,
    originCurrency: currencyIn.address,
    destinationCurrency: currencyOut.address,
    amountIn: price.amountIn,
    amountOut: price.amountOut,
    minimumAmountOut: price.minimumAmountOut,
    slippageBps: args.slippageBps,
    latePaymentSlippageBps: request.latePaymentSlippageBps,
    deadline: new Date(order.deadline * 1000),
    referrer: request.referrer,
    calls: request.calls.map((call) => ({ to: call.to, value: call.value.toString(), data: call.data })),
    orderData: order.order,
    quote: {
      fees: response.fees,
      details: response.details,
      feeSponsorship: toStoredFeeSponsorship(response.feeSponsorship),
      appFees: response.appFees,
      // The fill's gas as priced, in the destination's native unit: the record's actual execution fee converts the
      // gas the fill paid at the same rate (src/requests/requestFees.ts).
      fillGas: { amount: args.market.fillGasCost.toString() },
      // The rent the quote charged for opening the recipient's account (destination native): the most a fill may
      // pay for it (jobs/prepareSolverFill.ts).
      ...(args.market.fillRentCost > 0n ? { fillRent: { amount: args.market.fillRentCost.toString() } } : {}),
      // The prices the quote was made at, as observed by their sources: the request keeps them whatever the market
      // does next (a late deposit is re-priced at the prices of its own time, jobs/repriceDeposit.ts).
      prices: {
        in: storedPrice(args.market.observedIn),
        out: storedPrice(args.market.observedOut),
      },
      // What of the fill's gas and rent the user pays, input units: an exact-input underpayment pays it whole
      // (fixedFeesInOf, assessDeposit), so a dust deposit cannot make the solver pay for its fill.
      fixedFeesIn: (
        price.relayerGasFee +
        price.rentFee -
        (sponsored?.sponsored.execution ?? 0n) -
        (sponsored?.sponsored.rent ?? 0n)
      ).toString(),
      // How far over its input an exact-input deposit fills at this quote's rate (overpaymentRuleOf reads it; a
      // sponsored quote has none whatever this says).
      overpaymentToleranceBps: (deps.settings.overpaymentToleranceBps ?? DEFAULT_OVERPAYMENT_TOLERANCE_BPS).toString(),
      // A fixed-bps oracle quote keeps the oracle rate it was priced at and its bps (data.quoteOraclePrice).
      ...(args.oracleBps !== undefined ? { oraclePrice: oraclePrice(args.market, args.oracleBps) } : {}),
      // Marks the request's `deposit_address` feature (migration 0130).
      ...(depositAddress ? { depositAddress: { type: depositAddress.type } } : {}),
      // Drawn from the sponsor's balance when the fill is signed (jobs/signAndStoreFill.ts), with what it pays per
      // bucket in the input currency: the app bucket matches, to the unit, what the recipients earn for it.
      ...(sponsor && sponsored && sponsored.total > 0n
        ? {
            sponsor: {
              integrator: sponsor,
              amountMicroUsd: sponsored.totalMicroUsd.toString(),
              payment: {
                chainId: originChain.id,
                currency: currencyIn.address,
                amount: sponsored.total.toString(),
                components: Object.fromEntries(
                  FEE_COMPONENTS.map((component) => [component, sponsored.sponsored[component].toString()]),
                ),
              },
            },
          }
        : {}),
    },
    apiKeyId: args.apiKeyId ?? null,
    ...(depositAddress ? { depositAddress } : {}),
  };
}

/** The oracle rate of a fixed-bps quote: output per whole unit of input, observed when the older of its prices was. */
function oraclePrice(market: QuoteMarket, bps: bigint) {
  return {
    rate: formatAmount((market.observedIn.priceE18 * 10n ** 18n) / market.observedOut.priceE18, 18),
    observedAt: new Date(Math.min(market.observedIn.observedAt, market.observedOut.observedAt)).toISOString(),
    bps: bps.toString(),
  };
}

/** A price as stored with a request: USD per whole unit (decimal string), when and by which source it was observed. */
function storedPrice(observation: PriceObservation) {
  return {
    usd: formatAmount(observation.priceE18, 18),
    observedAt: new Date(observation.observedAt).toISOString(),
    source: observation.source,
  };
}
