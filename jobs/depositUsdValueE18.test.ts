import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { testEvmChain } from "../test/support/testEvmChain.js";
import { depositUsdValueE18 } from "./depositUsdValueE18.js";

describe("depositUsdValueE18", () => {
  const registry = createChainRegistry([testEvmChain(31337)]);
  const deposit = { chainId: 31337, currency: zeroAddress, amount: 10n ** 16n }; // 0.01 ETH

  it("values an amount of a chain's currency at its price, in USD with 18 decimals", async () => {
    const prices = createStaticPriceSource({ ETH: "3000" });
    expect(await depositUsdValueE18(deposit, { registry, prices })).toBe(30n * 10n ** 18n);
  });

  it("is undefined for an unpriced currency or one the chain does not have", async () => {
    const prices = createStaticPriceSource({ ETH: "3000" });
    expect(await depositUsdValueE18(deposit, { registry, prices: createStaticPriceSource({}) })).toBeUndefined();
    expect(await depositUsdValueE18({ ...deposit, chainId: 1 }, { registry, prices })).toBeUndefined();
  });
});
