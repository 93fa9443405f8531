import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { DepositPort } from "../src/chains/adapter.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { TransientError } from "../src/domain/errors.js";
import { type DepositValue, requiredConfirmations } from "../src/domain/requiredConfirmations.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { testEvmChain } from "../test/support/testEvmChain.js";
import { requiredDepositConfirmations } from "./requiredDepositConfirmations.js";

describe("requiredDepositConfirmations", () => {
  const registry = createChainRegistry([testEvmChain(31337)]);
  // Tiers: 0 blocks under 1,000 USD, 12 from there, 20 from 50 ETH whatever its price; an unknown value reaches
  // every USD tier.
  const tiers = [
    { minUsd: "1000", blocks: 12 },
    { minAmounts: { ETH: "50" }, blocks: 20 },
  ];
  const deposits = {
    chain: { id: 31337 },
    requiredConfirmations: (value: DepositValue) => requiredConfirmations(tiers, value),
  } as unknown as DepositPort;
  const deposit = { currency: zeroAddress, amount: 10n ** 17n }; // 0.1 ETH

  it("tiers a deposit by its value at the layer's price; a price the layer cannot get now takes the strictest tier", async () => {
    const at = (usd: string) => ({ deposits, registry, prices: createStaticPriceSource({ ETH: usd }) });
    expect(await requiredDepositConfirmations(deposit, at("3000"))).toBe(0);
    expect(await requiredDepositConfirmations(deposit, at("10000"))).toBe(12);
    // Attack: a price feed the depositor knocks over (or that goes stale) cannot shorten the wait.
    const down: PriceSource = {
      pricesOf: () => Promise.reject(new TransientError("PRICE_FETCH_FAILED", "no fresh price of ETH")),
      usdPriceE18: () => Promise.reject(new TransientError("PRICE_FETCH_FAILED", "no fresh price of ETH")),
    };
    expect(await requiredDepositConfirmations(deposit, { deposits, registry, prices: down })).toBe(12);
    expect(
      await requiredDepositConfirmations(deposit, { deposits, registry, prices: createStaticPriceSource({}) }),
    ).toBe(12);
    // Anything else is not the price's absence: it fails the job, which retries.
    const broken: PriceSource = { ...down, usdPriceE18: () => Promise.reject(new Error("bug")) };
    await expect(requiredDepositConfirmations(deposit, { deposits, registry, prices: broken })).rejects.toThrow("bug");
  });

  it("tiers by the deposit's own amount in its currency's units where the chain sets one, price or none", async () => {
    const whale = { currency: zeroAddress, amount: 50n * 10n ** 18n };
    expect(
      await requiredDepositConfirmations(whale, {
        deposits,
        registry,
        prices: createStaticPriceSource({ ETH: "0.01" }),
      }),
    ).toBe(20);
    expect(
      await requiredDepositConfirmations(
        { ...whale, amount: whale.amount - 1n },
        { deposits, registry, prices: createStaticPriceSource({ ETH: "0.01" }) },
      ),
    ).toBe(0);
  });
});
