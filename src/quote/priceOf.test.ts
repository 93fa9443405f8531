import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { Currency } from "../chains/chainRegistry.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import { priceOf } from "./priceOf.js";

const eth: Currency = {
  chainId: 31337,
  address: zeroAddress,
  symbol: "ETH",
  name: "Ether",
  decimals: 18,
  metadata: { logoURI: "", verified: true, isNative: true },
};

describe("priceOf", () => {
  it("answers the source's price, UNSUPPORTED_CURRENCY without one, PRICE_FETCH_FAILED (503, retryable) when the source fails", async () => {
    expect(await priceOf(createStaticPriceSource({ ETH: "3000" }), eth)).toBe(3000n * 10n ** 18n);
    await expect(priceOf(createStaticPriceSource({}), eth)).rejects.toMatchObject({
      errorCode: "UNSUPPORTED_CURRENCY",
      status: 400,
    });
    const down = { usdPriceE18: () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:443")) };
    const failure = await priceOf(down, eth).catch((error: unknown) => error);
    expect(failure).toMatchObject({ errorCode: "PRICE_FETCH_FAILED", status: 503, retryable: true });
    expect((failure as Error).message).not.toMatch(/ECONNREFUSED/);
  });
});
