import { describe, expect, it } from "vitest";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { Currency } from "../chains/chainRegistry.js";
import { testPriceQuote } from "../../test/support/testPriceQuote.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import type { PriceQuote } from "./priceQuote.js";
import { quoteResponse } from "./quoteResponse.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const usd = (dollars: number) => BigInt(dollars) * 10n ** 18n;
const btc = { symbol: "BTC", address: "btc", decimals: 8 } as Currency;
const eth = { symbol: "ETH", address: "0x0000000000000000000000000000000000000000", decimals: 18 } as Currency;
const request: QuoteRequest = {
  ...testQuoteRequest,
  originChain: { id: 8253038, depository: "bcrt1qdepository" } as ChainConfig,
  currencyIn: btc,
  currencyOut: eth,
};
const market = {
  kind: { operation: "bridge", isFixedRate: false },
  // $100,000 a BTC, $4,000 an ETH.
  priceIn: usd(100_000),
  priceOut: usd(4_000),
  originNative: btc,
  destinationNative: eth,
  priceOriginNative: usd(100_000),
  originGasFee: 200n,
  depositAccount: { balance: 9_000_000n, allowance: 0n },
} as unknown as QuoteMarket;
// 500,000 sats ($500) in, 0.12 ETH ($480) out, 10 sats of relayer fees.
const price: PriceQuote = { ...testPriceQuote, amountOut: 12n * 10n ** 16n, minimumAmountOut: 119n * 10n ** 15n };
const order = { order: { version: "v1" }, orderId: "0xorder", usdIn: usd(500), timeEstimate: 1203 };
const args = { request, market, price, order, slippageBps: 50n, orderSignature: undefined };

describe("quoteResponse", () => {
  it("prices the fees and amounts in USD, and pays the order to the origin's depository", () => {
    const { fees, details, protocol } = quoteResponse(args);
    expect(fees.relayer).toMatchObject({ amount: "10", amountFormatted: "0.0000001", amountUsd: "0.01" });
    expect(fees.relayerGas.amount).toBe("7");
    expect(fees.gas).toMatchObject({ currency: btc, amount: "200", amountUsd: "0.2" });
    expect(fees.subsidized.amount).toBe("0");
    expect(details).toMatchObject({
      operation: "bridge",
      currencyIn: { amount: "500000", amountUsd: "500" },
      currencyOut: { amount: "120000000000000000", minimumAmount: "119000000000000000", amountUsd: "480" },
      totalImpact: { usd: "-20", percent: "-4" },
      // 0.12 ETH for 0.005 BTC
      rate: "24",
      slippageTolerance: { total: "0.5", destination: { value: "1000000000000000", usd: "4" } },
      timeEstimate: 1203,
      userBalance: "9000000",
      isFixedRate: false,
    });
    expect(protocol.v2).toEqual({
      orderId: "0xorder",
      hubType: "onchain",
      orderData: { version: "v1" },
      paymentDetails: { chainId: "8253038", depository: "bcrt1qdepository", currency: "btc", amount: "500000" },
    });
  });

  it("carries the order's signature only when one was made, and splits the fees between sponsor and user", () => {
    const sponsored = {
      sponsored: { execution: 7n, swap: 0n, relay: 0n, app: 0n, rent: 0n },
      total: 7n,
      totalMicroUsd: 7_000n,
      capHit: false,
    };
    const { protocol, feeSponsorship, fees } = quoteResponse({
      ...args,
      request: { ...request, sponsorship: { components: ["execution"], bps: 10_000n, capMicroUsd: undefined } },
      price: { ...price, sponsored },
      orderSignature: "0xsigned",
    });
    expect(protocol.v2.orderSignature).toBe("0xsigned");
    expect(fees.subsidized.amount).toBe("7");
    expect(feeSponsorship.quoted).toMatchObject({
      selectedComponents: ["execution"],
      components: { execution: { selected: true, sponsored: { amount: "7" }, userPays: { amount: "0" } } },
      sponsoredTotal: { amount: "7" },
      userPaysTotal: { amount: "3" },
      subsidizationBps: 10_000,
    });
    expect(feeSponsorship.actual.sponsorPayment).toEqual({ amount: "7", address: "btc", chainId: 8253038 });
  });
});
