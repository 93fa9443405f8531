import { describe, expect, it } from "vitest";
import { requestFees } from "./requestFees.js";
import type { Amount, CurrencyObject } from "./requestRoute.js";

const usdc: CurrencyObject = {
  chainId: 1,
  address: "0xusdc",
  symbol: "USDC",
  name: "USD Coin",
  decimals: 6,
  metadata: { logoURI: "", verified: true, isNative: false },
};
const amount = (units: bigint, usd: string): Amount => ({
  currency: usdc,
  amount: units.toString(),
  amountFormatted: "",
  amountUsd: usd,
  minimumAmount: units.toString(),
});
// 100 USDC in; 0.50 gas, 0.30 service, 0.20 app, 0.10 sponsored: 99.10 USDC worth out (as USDC on the other side).
const quote = {
  fees: {
    relayerGas: amount(500_000n, "0.5"),
    relayerService: amount(300_000n, "0.3"),
    app: amount(200_000n, "0.2"),
    subsidized: amount(100_000n, "0.1"),
  },
  details: {
    expandedPriceImpact: {
      swap: { usd: "0" },
      execution: { usd: "-0.5" },
      relay: { usd: "-0.3" },
      app: { usd: "-0.2" },
      sponsored: { usd: "0.1" },
    },
  },
  // The fill's gas as priced: 1e15 wei of the destination's native for the 0.50 USDC.
  fillGas: { amount: "1000000000000000" },
  appFees: [{ recipient: "0xA", bps: "20", amount: "200000", amountFormatted: "0.2", amountUsd: "0.2" }],
  overpaymentToleranceBps: "100",
};
const route = {
  currencyIn: usdc,
  quotedIn: amount(100_000_000n, "100"),
  quotedOut: amount(99_100_000n, "99.1"),
  deposited: null as bigint | null,
  received: null as bigint | null,
};
const view = {
  quote,
  status: "pending" as const,
  tradeType: "EXACT_INPUT" as const,
  amountIn: 100_000_000n,
  fills: [] as { txFee: bigint | null }[],
};

describe("requestFees", () => {
  it("quotes each component signed, the sponsored total as a gain in the fee currency", () => {
    const { quoted, actual } = requestFees(view as never, route);
    expect(quoted).toEqual({
      swap: { usd: "0", amount: "0", amountFormatted: "0" },
      execution: { usd: "-0.5", amount: "-500000", amountFormatted: "-0.5" },
      platform: { usd: "-0.3", amount: "-300000", amountFormatted: "-0.3" },
      app: { usd: "-0.2", amount: "-200000", amountFormatted: "-0.2" },
      sponsored: { usd: "0.1", amount: "100000", amountFormatted: "0.1" },
    });
    // No fill yet: the actual phase falls back to the quoted one.
    expect(actual).toBe(quoted);
  });

  it("takes the actual execution from the gas the fill paid, and the platform's from what the user gave up", () => {
    const filled = { ...view, status: "success" as const, fills: [{ txFee: 400_000_000_000_000n }] };
    const { actual } = requestFees(filled as never, { ...route, deposited: 100_000_000n, received: 99_100_000n });
    // 0.4e15 wei at the quote's 0.50 USDC per 1e15: 0.20 USDC; the 0.30 of gas the fill did not use is the platform's.
    expect(actual.execution).toEqual({ usd: "-0.2", amount: "-200000", amountFormatted: "-0.2" });
    expect(actual.platform).toEqual({ usd: "-0.6", amount: "-600000", amountFormatted: "-0.6" });
    expect(actual.app).toEqual({ usd: "-0.2", amount: "-200000", amountFormatted: "-0.2" });
    expect(actual.sponsored).toEqual({ usd: "0.1", amount: "100000", amountFormatted: "0.1" });
    // The components add up to what the request cost: 100 in, 99.10 out.
    const total = Object.values(actual).reduce((sum, value) => sum + BigInt(value.amount), 0n);
    expect(total).toBe(-900_000n);
  });

  it("scales with an overpayment: more deposited and received, the app fees earned on it", () => {
    const filled = { ...view, status: "success" as const, fills: [{ txFee: 1_000_000_000_000_000n }] };
    const { actual } = requestFees(filled as never, { ...route, deposited: 101_000_000n, received: 100_091_000n });
    expect(actual.execution.amount).toBe("-500000");
    expect(actual.app.amount).toBe("-202000");
    expect(BigInt(actual.platform.amount)).toBe(-(101_000_000n - 100_091_000n - 500_000n - 202_000n + 100_000n));
  });

  it("keeps the quoted execution for quotes stored before the fill's gas was", () => {
    const old = { ...view, quote: { ...quote, fillGas: undefined }, status: "success" as const };
    const { actual } = requestFees({ ...old, fills: [{ txFee: 1n }] } as never, {
      ...route,
      deposited: 100_000_000n,
      received: 99_100_000n,
    });
    expect(actual.execution.amount).toBe("-500000");
    expect(actual.platform.amount).toBe("-300000");
  });
});
