import { describe, expect, it } from "vitest";
import { refundAmount } from "./refundAmount.js";

describe("refundAmount", () => {
  it("pays the deposit less the refund's gas", () => {
    expect(refundAmount(1000n, 100n)).toEqual({ amount: 900n });
    expect(refundAmount(200n, 100n)).toEqual({ amount: 100n });
  });

  it("refuses a refund that would return less than it burns", () => {
    expect(refundAmount(199n, 100n)).toEqual({ refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
  });

  it("refuses a refund the gas eats whole", () => {
    expect(refundAmount(100n, 100n)).toEqual({ refundFailReason: "NEGATIVE_NEW_AMOUNT_AFTER_FEES" });
    expect(refundAmount(1n, 100n)).toEqual({ refundFailReason: "NEGATIVE_NEW_AMOUNT_AFTER_FEES" });
  });
});
