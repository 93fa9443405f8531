import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { Currency } from "../../src/chains/chainRegistry.js";
import type { QuoteRequest } from "../../src/quote/validateQuoteRequest.js";

/** A validated Bitcoin → EVM quote request with a deposit address, for tests of the quote's steps. */
export const testQuoteRequest: QuoteRequest = {
  user: "bcrt1quser",
  recipient: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  refundTo: "bcrt1quser",
  originChain: { id: 8253038 } as ChainConfig,
  destinationChain: { id: 31338 } as ChainConfig,
  currencyIn: { address: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8" } as Currency,
  currencyOut: { address: "0x0000000000000000000000000000000000000000" } as Currency,
  amount: 500_000n,
  tradeType: "EXACT_INPUT",
  calls: [],
  slippageBps: undefined,
  latePaymentSlippageBps: undefined,
  referrer: undefined,
  includeProtocolData: false,
  appFees: [],
  sponsorship: undefined,
  depositAddress: { type: "open" },
  depositFeePayer: undefined,
};
