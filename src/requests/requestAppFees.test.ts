import { describe, expect, it } from "vitest";
import { requestAppFees } from "./requestAppFees.js";

// A 50 % overpayment tolerance: a deposit of 150 % of the input is earned on in full.
const quote = {
  overpaymentToleranceBps: "5000",
  appFees: [
    { recipient: "0xA", bps: "100", amount: "1000000", amountFormatted: "1", amountUsd: "1" },
    { recipient: "0xB", bps: "25", amount: "250000", amountFormatted: "0.25", amountUsd: "0.25" },
  ],
};
const view = { status: "success" as const, tradeType: "EXACT_INPUT" as const, amountIn: 100_000_000n, quote };

describe("requestAppFees", () => {
  it("shows the quoted shares, and what was earned once the request succeeded", () => {
    const fees = requestAppFees(view, 100_000_000n, 6);
    expect(fees.quoted).toEqual(quote.appFees);
    expect(fees.actual).toEqual(quote.appFees);
  });

  it("scales an exact input's earned fees and their USD with the deposit, up to the overpayment tolerance", () => {
    const { actual } = requestAppFees(view, 150_000_000n, 6);
    expect(actual.map((fee) => [fee.amount, fee.amountFormatted, fee.amountUsd])).toEqual([
      ["1500000", "1.5", "1.5"],
      ["375000", "0.375", "0.375"],
    ]);
    // Paid 10x: earned on the tolerated 150 % only.
    expect(requestAppFees(view, 1_000_000_000n, 6).actual.map((fee) => fee.amount)).toEqual(["1500000", "375000"]);
  });

  it("has no actual fees before success, and nothing at all without app fees", () => {
    for (const status of ["waiting", "pending", "submitted", "failure", "refund"] as const)
      expect(requestAppFees({ ...view, status }, 100_000_000n, 6).actual).toEqual([]);
    expect(requestAppFees({ ...view, quote: {} }, 100_000_000n, 6)).toEqual({ quoted: [], actual: [] });
    expect(requestAppFees({ ...view, quote: null }, null, 6)).toEqual({ quoted: [], actual: [] });
  });
});
