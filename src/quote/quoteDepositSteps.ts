import type { QuoteStep } from "../chains/adapter.js";
import type { QuotedDepositAddress } from "../../schema/depositAddresses.js";
import type { PriceQuote } from "./priceQuote.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/**
 * The steps the user takes to pay the quote, as the origin's family builds them: its deposit (and approval) of the
 * priced input for the order, or a payment to the deposit address the quote hands out.
 */
export function quoteDepositSteps(
  request: QuoteRequest,
  market: Pick<QuoteMarket, "origin" | "depositAccount">,
  price: Pick<PriceQuote, "amountIn">,
  order: { orderId: string; requestId: string },
  depositAddress: Pick<QuotedDepositAddress, "address"> | undefined,
): Promise<QuoteStep[]> {
  const { destinationChain } = request;
  return market.origin.depositSteps({
    user: request.user,
    currency: request.currencyIn,
    amount: price.amountIn,
    orderId: order.orderId,
    requestId: order.requestId,
    allowance: market.depositAccount.allowance,
    destinationName: destinationChain.displayName ?? destinationChain.name,
    protocolVersion: request.protocolVersion,
    ...(request.depositFeePayer ? { feePayer: request.depositFeePayer } : {}),
    // `/price` hands out no address: its steps are never shown.
    ...(request.depositAddress ? { depositAddress: depositAddress?.address ?? "" } : {}),
  });
}
