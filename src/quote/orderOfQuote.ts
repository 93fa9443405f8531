import { randomBytes } from "node:crypto";
import { computeOrderId, computeRequestId } from "../domain/order.js";
import { usdValueE18 } from "../pricing/usdValue.js";
import { buildOrder } from "./buildOrder.js";
import type { PriceQuote } from "./priceQuote.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import { quoteTiming } from "./quoteTiming.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** The quote's order: timed by both chains' blocks and the deposit's confirmations, salted, and its ids. */
export function orderOfQuote(deps: QuoteEngineDeps, request: QuoteRequest, market: QuoteMarket, price: PriceQuote) {
  const { currencyIn, originChain, destinationChain } = request;
  const { origin, destination } = market;
  const usdIn = usdValueE18(price.amountIn, currencyIn, market.priceIn);
  const timing = quoteTiming({
    ttlSeconds: deps.settings.quoteTtlSeconds,
    originBlockTimeSeconds: originChain.blockTimeSeconds,
    destinationBlockTimeSeconds: destinationChain.blockTimeSeconds,
    confirmations: deps.adapters
      .deposits(originChain.id)
      .requiredConfirmations({ usdE18: usdIn, amount: price.amountIn, currency: currencyIn }),
  });
  const now = deps.now?.() ?? Date.now();
  const deadline = Math.floor(now / 1000) + timing.lifetimeSeconds;
  const order = buildOrder(request, price, {
    solver: destination.solverAddress,
    feeRecipient: origin.solverAddress,
    originAddress: origin.address,
    destinationAddress: destination.address,
    salt: BigInt(`0x${randomBytes(8).toString("hex")}`),
    deadline,
  });
  const orderId = computeOrderId(order);
  return { order, orderId, requestId: computeRequestId(orderId), now, deadline, usdIn, timing };
}
