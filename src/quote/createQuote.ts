import { admitQuote } from "./admitQuote.js";
import { assertChainsOpen } from "./assertChainsOpen.js";
import { checkedQuotePrice } from "./checkedQuotePrice.js";
import { orderOfQuote } from "./orderOfQuote.js";
import type { Quote } from "./quote.js";
import { quoteDepositAddress } from "./quoteDepositAddress.js";
import { quoteDepositSteps } from "./quoteDepositSteps.js";
import type { QuoteCaller, QuoteEngineDeps } from "./quoteEngineDeps.js";
import { quoteResponse } from "./quoteResponse.js";
import { quotedRequest } from "./quotedRequest.js";
import { readQuoteMarket } from "./readQuoteMarket.js";
import { simulateCalls } from "./simulateCalls.js";

export type { QuoteEngineDeps } from "./quoteEngineDeps.js";

/**
 * Validates, prices, records and answers one quote, in steps: admission (`admitQuote`), the market it is priced on
 * (`readQuoteMarket`), the price and its bounds (`checkedQuotePrice`), the order (`orderOfQuote`), the deposit address
 * (`quoteDepositAddress`), the origin's steps (`quoteDepositSteps`) and the order's signature, the chains open for its value and its calls
 * simulated, the answer (`quoteResponse`), and the request stored (`quotedRequest`).
 */
export async function createQuote(deps: QuoteEngineDeps, body: unknown, caller: QuoteCaller = {}): Promise<Quote> {
  const { request, sponsor } = await admitQuote(deps, body, caller);
  const { currencyOut, originChain, destinationChain } = request;
  const market = await readQuoteMarket(deps, request);
  const price = await checkedQuotePrice(deps, request, market, sponsor, caller.oraclePricingBps);
  const order = orderOfQuote(deps, request, market, price);
  const { orderId, requestId } = order;
  const depositAddress = await quoteDepositAddress(request, deps, {
    now: new Date(order.now),
    apiKeyId: caller.apiKeyId,
    orderId,
    requestId,
  });
  const steps = await quoteDepositSteps(request, market, price, order, depositAddress);
  // validateQuoteRequest refused protocol data to a destination without `signOrder`.
  const orderSignature = request.includeProtocolData ? await market.destination.signOrder!(order.order) : undefined;

  await assertChainsOpen(deps.availability, [originChain, destinationChain], order.usdIn);
  if (request.calls.length > 0) {
    await simulateCalls(market.destination, {
      requestId,
      orderId,
      currency: currencyOut.address,
      amount: price.amountOut,
      recipient: request.recipient,
      calls: request.calls,
      currencySymbol: currencyOut.symbol,
    });
  }
  const slippageBps = market.kind.isFixedRate ? 0n : (request.slippageBps ?? deps.settings.defaultSlippageBps);
  const response = quoteResponse({
    request,
    market,
    price,
    order: { order: order.order, orderId, usdIn: order.usdIn, timeEstimate: order.timing.timeEstimate },
    slippageBps,
    orderSignature,
  });
  await deps.saveRequest(
    quotedRequest({
      deps,
      request,
      market,
      price,
      order,
      slippageBps,
      response,
      sponsor,
      depositAddress,
      apiKeyId: caller.apiKeyId,
      oracleBps: caller.oraclePricingBps,
    }),
  );
  const { fees, feeSponsorship, details, protocol } = response;
  return { requestId, steps, fees, feeSponsorship, details, protocol };
}
