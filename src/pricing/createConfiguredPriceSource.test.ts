import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { priceSettingsWith, rolePrices } from "../rolePrices.js";
import { createConfiguredPriceSource } from "./createConfiguredPriceSource.js";

describe("createConfiguredPriceSource", () => {
  it("builds the static table as a source that never ages; an unpriced symbol is UNSUPPORTED_CURRENCY", async () => {
    const clock = { now: 1_000_000 };
    const prices = createConfiguredPriceSource(rolePrices(parseConfig({ PRICES: "ETH=3000,USDC=1" }), "api", [])!, {
      now: () => clock.now,
    });
    expect(await prices.usdPriceE18({ symbol: "eth" })).toBe(3000n * 10n ** 18n);
    clock.now += 365 * 24 * 3_600_000;
    expect((await prices.pricesOf([{ symbol: "USDC" }]))[0]).toMatchObject({ priceE18: 10n ** 18n, source: "static" });
    expect(await prices.usdPriceE18({ symbol: "BTC" })).toBeUndefined();
    await expect(prices.pricesOf([{ symbol: "BTC" }])).rejects.toMatchObject({ errorCode: "UNSUPPORTED_CURRENCY" });
  });

  it("a Hermes nobody answers is PRICE_FETCH_FAILED within the timeout, never a hang", async () => {
    const settings = priceSettingsWith(parseConfig({ PRICE_TIMEOUT_MS: "200" }), [
      { kind: "pyth", hermesUrl: "http://127.0.0.1:9", feedIds: { ETH: "f".repeat(64) }, maxConfidenceBps: 200n },
    ]);
    const started = Date.now();
    await expect(createConfiguredPriceSource(settings).pricesOf([{ symbol: "ETH" }])).rejects.toMatchObject({
      errorCode: "PRICE_FETCH_FAILED",
      status: 503,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
  it("refuses aggregators on a chain whose adapter reads none", () => {
    const settings = priceSettingsWith(parseConfig({}), [
      { kind: "aggregator", aggregators: [{ chainId: 8253038, key: "BTC", address: "x" }], refreshMs: 5_000 },
    ]);
    expect(() => createConfiguredPriceSource(settings, { adapters: { quoterOf: () => undefined } })).toThrow(
      /chain 8253038 names price aggregators, but its family reads none/,
    );
  });
});
