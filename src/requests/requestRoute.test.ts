import { describe, expect, it } from "vitest";
import { type Amount, type CurrencyObject, requestRoute } from "./requestRoute.js";

const currency = (chainId: number, symbol: string, decimals: number): CurrencyObject => ({
  chainId,
  address: `0x${symbol.toLowerCase()}`,
  symbol,
  name: symbol,
  decimals,
  metadata: { logoURI: "", verified: true, isNative: false },
});
const amount = (of: CurrencyObject, units: bigint, usd: string): Amount => ({
  currency: of,
  amount: units.toString(),
  amountFormatted: "",
  amountUsd: usd,
  minimumAmount: units.toString(),
});
const weth = currency(31337, "WETH", 18);
const usdc = currency(31337, "USDC", 6);
const remoteUsdc = currency(31338, "USDC", 6);

function viewOf(destination: CurrencyObject, deposits: bigint[], fills: bigint[]) {
  return {
    originChainId: weth.chainId,
    destinationChainId: destination.chainId,
    originCurrency: weth.address,
    destinationCurrency: destination.address,
    amountIn: 10n ** 18n,
    amountOut: 3_000_000_000n,
    minimumAmountOut: 2_990_000_000n,
    quote: {
      details: {
        currencyIn: amount(weth, 10n ** 18n, "3000"),
        currencyOut: amount(destination, 3_000_000_000n, "3000"),
        rate: "3000",
      },
    },
    deposits: deposits.map((value) => ({ chainId: weth.chainId, amount: value, reorg: null })),
    fills: fills.map((value) => ({ amount: value })),
  } as never;
}
const none = () => undefined;

describe("requestRoute", () => {
  it("gives a same-chain request no destination side: the origin's output is the quoted output, then what was received", () => {
    const quotedOnly = requestRoute(viewOf(usdc, [], []), none);
    expect(quotedOnly.quoted.destination).toBeUndefined();
    expect(quotedOnly.quoted.origin.outputCurrency?.amount).toBe("3000000000");
    expect(quotedOnly.actual.destination).toBeUndefined();

    const deposited = requestRoute(viewOf(usdc, [10n ** 18n], []), none);
    expect(deposited.actual.origin.inputCurrency?.amount).toBe(String(10n ** 18n));
    // Deposited, nothing received yet: the spec's null output.
    expect(deposited.actual.origin.outputCurrency).toBeNull();
    expect(deposited.actual.destination).toBeUndefined();

    const filled = requestRoute(viewOf(usdc, [10n ** 18n], [2_995_000_000n]), none);
    expect(filled.actual.destination).toBeUndefined();
    // Received, not the deposit.
    expect(filled.actual.origin.outputCurrency).toMatchObject({ currency: usdc, amount: "2995000000" });
    expect(filled.actual.origin.inputCurrency).toMatchObject({ currency: weth, amount: String(10n ** 18n) });
    expect(filled.actual.rate).toBe("2995");
  });

  it("keeps a cross-chain request's destination side, its output what was received", () => {
    const filled = requestRoute(viewOf(remoteUsdc, [10n ** 18n], [2_995_000_000n]), none);
    expect(filled.quoted.destination?.outputCurrency?.amount).toBe("3000000000");
    expect(filled.actual.origin.outputCurrency?.amount).toBe(String(10n ** 18n));
    expect(filled.actual.destination).toMatchObject({
      inputCurrency: { amount: "3000000000" },
      outputCurrency: { currency: remoteUsdc, amount: "2995000000" },
    });
  });
});
