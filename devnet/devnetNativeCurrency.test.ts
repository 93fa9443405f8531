import { describe, expect, it } from "vitest";
import { devnetNativeCurrency, EXCHANGE_EVM_CHAIN_ID } from "./devnetNativeCurrency.js";

describe("devnetNativeCurrency", () => {
  it("is HYPE on the exchange's EVM chain and ETH on the others, 18 decimals each", () => {
    expect(devnetNativeCurrency(EXCHANGE_EVM_CHAIN_ID)).toEqual({ symbol: "HYPE", name: "HYPE", decimals: 18 });
    expect(devnetNativeCurrency(31337)).toEqual({ symbol: "ETH", name: "Ether", decimals: 18 });
  });
});
