import type { PriceQuote } from "../../src/quote/priceQuote.js";

/** The price of testQuoteRequest, for tests of the quote's steps after pricing: 500,000 in, 990 out, 10 of fees. */
export const testPriceQuote: PriceQuote = {
  amountIn: 500_000n,
  amountOut: 990n,
  minimumAmountOut: 980n,
  relayerGasFee: 7n,
  relayerServiceFee: 3n,
  rentFee: 0n,
  appFees: [],
  sponsored: undefined,
};
