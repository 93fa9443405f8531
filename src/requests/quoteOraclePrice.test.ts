import { describe, expect, it } from "vitest";
import { quoteOraclePrice } from "./quoteOraclePrice.js";
import type { CurrencyObject } from "./requestRoute.js";

const eth = { chainId: 1, address: "0x0", symbol: "ETH" } as CurrencyObject;
const usdc = { chainId: 2, address: "0x1", symbol: "USDC" } as CurrencyObject;

describe("quoteOraclePrice", () => {
  it("shows a fixed-bps quote's oracle rate with the request's currencies; null for any other quote", () => {
    const oraclePrice = { rate: "3000", observedAt: "2026-11-28T00:00:00.000Z", bps: "25" };
    expect(quoteOraclePrice({ fees: {}, oraclePrice }, eth, usdc)).toEqual({
      rate: "3000",
      observedAt: "2026-11-28T00:00:00.000Z",
      inputCurrency: eth,
      outputCurrency: usdc,
    });
    expect(quoteOraclePrice({ fees: {} }, eth, usdc)).toBeNull();
    expect(quoteOraclePrice(null, eth, usdc)).toBeNull();
  });
});
