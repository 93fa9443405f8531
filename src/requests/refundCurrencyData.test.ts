import { describe, expect, it } from "vitest";
import { refundCurrencyData } from "./refundCurrencyData.js";
import type { CurrencyObject } from "./requestRoute.js";

const currency = (address: string, decimals: number): CurrencyObject => ({
  chainId: 1,
  address,
  symbol: address.toUpperCase(),
  name: address,
  decimals,
  metadata: { logoURI: "", verified: true, isNative: false },
});
const usdc = currency("0xusdc", 6);
const weth = currency("0xweth", 18);
const route = {
  quotedIn: { currency: usdc, amount: "10000000", amountFormatted: "10", amountUsd: "10", minimumAmount: "10000000" },
};
const currencyOf = (chainId: number, address: string) => (address === "0xweth" ? weth : undefined);
const leg = (amount: bigint | null, txHash: string | null, currencyAddress = "0xusdc") => ({
  chainId: 1,
  currency: currencyAddress,
  txHash,
  amount,
  status: "confirmed",
});

describe("refundCurrencyData", () => {
  it("is null until a refund transaction returned an amount", () => {
    expect(refundCurrencyData({ refunds: [] }, route, currencyOf)).toBeNull();
    expect(refundCurrencyData({ refunds: [leg(null, null)] }, route, currencyOf)).toBeNull();
  });

  it("is the amount returned in the input currency, valued at the quote's price", () => {
    expect(refundCurrencyData({ refunds: [leg(9_900_000n, "0x1")] }, route, currencyOf)).toEqual({
      currency: usdc,
      amount: "9900000",
      amountFormatted: "9.9",
      amountUsd: "9.9",
      minimumAmount: "9900000",
    });
  });

  it("names another currency a deposit was refunded in, without a price it never had", () => {
    expect(refundCurrencyData({ refunds: [leg(10n ** 18n, "0x1", "0xweth")] }, route, currencyOf)).toEqual({
      currency: weth,
      amount: "1000000000000000000",
      amountFormatted: "1",
      amountUsd: "0",
      minimumAmount: "1000000000000000000",
    });
  });

  it("values a refund at the quote's price only in the quoted mint itself, not in one differing only by case", () => {
    const mint = currency("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 6);
    const solanaRoute = { quotedIn: { ...route.quotedIn, currency: mint } };
    const otherCase = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V";
    const refunded = refundCurrencyData({ refunds: [leg(5_000_000n, "sig", otherCase)] }, solanaRoute, currencyOf);
    expect(refunded).toMatchObject({ currency: { address: otherCase, decimals: 0 }, amountUsd: "0" });
    expect(
      refundCurrencyData({ refunds: [leg(5_000_000n, "sig", mint.address)] }, solanaRoute, currencyOf),
    ).toMatchObject({ currency: mint, amountUsd: "5" });
  });
});
