import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { Currency } from "../chains/chainRegistry.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import { quotePrices } from "./quotePrices.js";

const currency = (symbol: string): Currency => ({
  chainId: 31337,
  address: zeroAddress,
  symbol,
  name: symbol,
  decimals: 18,
  metadata: { logoURI: "", verified: true, isNative: true },
});

describe("quotePrices", () => {
  it("answers the sources' prices in order, UNSUPPORTED_CURRENCY without one, PRICE_FETCH_FAILED (503, retryable) when the source fails", async () => {
    const prices = await quotePrices(createStaticPriceSource({ ETH: "3000", USDC: "1" }), [
      currency("USDC"),
      currency("eth"),
    ]);
    expect(prices.map((price) => [price.priceE18, price.source])).toEqual([
      [10n ** 18n, "static"],
      [3000n * 10n ** 18n, "static"],
    ]);
    await expect(quotePrices(createStaticPriceSource({}), [currency("ETH")])).rejects.toMatchObject({
      errorCode: "UNSUPPORTED_CURRENCY",
      status: 400,
    });
    const down = {
      pricesOf: () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:443")),
      usdPriceE18: () => Promise.reject(new Error("unused")),
    };
    const failure = await quotePrices(down, [currency("ETH")]).catch((error: unknown) => error);
    expect(failure).toMatchObject({ errorCode: "PRICE_FETCH_FAILED", status: 503, retryable: true });
    expect((failure as Error).message).not.toMatch(/ECONNREFUSED/);
  });
});
