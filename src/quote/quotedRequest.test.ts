import { describe, expect, it } from "vitest";
import type { Currency } from "../chains/chainRegistry.js";
import type { SponsoredFees } from "../domain/sponsorFees.js";
import { testPriceQuote } from "../../test/support/testPriceQuote.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import type { quoteResponse } from "./quoteResponse.js";
import { quotedRequest } from "./quotedRequest.js";
import type { QuoteMarket } from "./readQuoteMarket.js";

const price = testPriceQuote;
const market = {
  kind: { requestType: "Bridge" },
  fillGasCost: 21_000n * 3n,
  observedIn: { priceE18: 2n * 10n ** 18n, observedAt: Date.UTC(2026, 10, 28), source: "pyth" },
  observedOut: { priceE18: 15n * 10n ** 17n, observedAt: Date.UTC(2026, 10, 28, 0, 0, 1), source: "static" },
} as unknown as QuoteMarket;
const response = {
  fees: { relayer: "fees" },
  details: { rate: "1" },
  appFees: [],
  feeSponsorship: {
    quoted: { selectedComponents: [] },
    actual: { selectedComponents: [], sponsorPayment: { amount: "0" } },
  },
} as unknown as ReturnType<typeof quoteResponse>;
const order = {
  order: { version: "v1" } as never,
  orderId: "0xorder",
  requestId: "0xrequest",
  deadline: 1_700_000_900,
};
const deps = { settings: {} } as QuoteEngineDeps;
const args = {
  deps,
  request: { ...testQuoteRequest, currencyIn: { address: "btc" } as Currency, depositAddress: undefined },
  market,
  price,
  order,
  slippageBps: 50n,
  response,
  sponsor: undefined,
  depositAddress: undefined,
  apiKeyId: undefined,
};

describe("quotedRequest", () => {
  it("stores the quote's terms, its order, its answer and the prices it was made at", () => {
    const stored = quotedRequest(args);
    expect(stored).toMatchObject({
      id: "0xrequest",
      orderId: "0xorder",
      requestType: "Bridge",
      originChainId: 8253038,
      destinationChainId: 31338,
      originCurrency: "btc",
      amountIn: 500_000n,
      minimumAmountOut: 980n,
      slippageBps: 50n,
      deadline: new Date(1_700_000_900_000),
      orderData: { version: "v1" },
      apiKeyId: null,
      quote: {
        fees: { relayer: "fees" },
        feeSponsorship: { quoted: { selectedComponents: [] }, sponsorPayment: { amount: "0" } },
        fillGas: { amount: "63000" },
        prices: {
          in: { usd: "2", observedAt: "2026-11-28T00:00:00.000Z", source: "pyth" },
          out: { usd: "1.5", observedAt: "2026-11-28T00:00:01.000Z", source: "static" },
        },
        overpaymentToleranceBps: expect.any(String),
        // The fill's gas (7) and rent (0) in input units, which an underpayment pays whole.
        fixedFeesIn: "7",
      },
    });
    expect(stored.quote).not.toHaveProperty("sponsor");
    expect(stored.quote).not.toHaveProperty("oraclePrice");
    expect(stored.quote).not.toHaveProperty("depositAddress");
    expect(stored).not.toHaveProperty("depositAddress");
  });

  it("keeps a fixed-bps oracle quote's oracle rate, its older price's time and the bps", () => {
    expect(quotedRequest({ ...args, oracleBps: 25n }).quote).toHaveProperty("oraclePrice", {
      rate: "1.333333333333333333",
      observedAt: "2026-11-28T00:00:00.000Z",
      bps: "25",
    });
  });

  it("keeps the deposit address and its feature, and the sponsor's draw only when it pays something", () => {
    const depositAddress = { chainId: 8253038, address: "bcrt1qaddress7", key: "7", type: "strict" as const };
    const sponsored = (total: bigint): SponsoredFees => ({
      sponsored: { execution: total, swap: 0n, relay: 0n, app: 0n, rent: 0n },
      total,
      totalMicroUsd: total * 2n,
      capHit: false,
    });
    const stored = quotedRequest({
      ...args,
      price: { ...price, sponsored: sponsored(7n) },
      sponsor: "acme",
      depositAddress,
      apiKeyId: "key-1",
    });
    expect(stored).toMatchObject({ depositAddress, apiKeyId: "key-1", quote: { depositAddress: { type: "strict" } } });
    // The sponsor pays the gas: none of it is the user's fixed fee; rent the user pays is.
    expect(stored.quote).toHaveProperty("fixedFeesIn", "0");
    const withRent = quotedRequest({ ...args, price: { ...price, rentFee: 5n, sponsored: sponsored(7n) } });
    expect(withRent.quote).toHaveProperty("fixedFeesIn", "5");
    expect(stored.quote).toMatchObject({
      sponsor: {
        integrator: "acme",
        amountMicroUsd: "14",
        payment: { chainId: 8253038, currency: "btc", amount: "7", components: { execution: "7", app: "0" } },
      },
    });
    const nothingSponsored = quotedRequest({ ...args, price: { ...price, sponsored: sponsored(0n) }, sponsor: "acme" });
    expect(nothingSponsored.quote).not.toHaveProperty("sponsor");
  });
});
