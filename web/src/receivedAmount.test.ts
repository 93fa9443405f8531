import { describe, expect, it } from "vitest";
import { receivedAmount } from "./receivedAmount.js";

describe("receivedAmount", () => {
  it("is the destination side's output on a cross-chain route, not the origin's", () => {
    expect(receivedAmount({ origin: { outputCurrency: "deposited" }, destination: { outputCurrency: "filled" } })).toBe(
      "filled",
    );
  });

  it("is the origin side's output on a same-chain route (no destination side)", () => {
    expect(receivedAmount({ origin: { outputCurrency: "filled" }, destination: null })).toBe("filled");
    expect(receivedAmount({ origin: { outputCurrency: null }, destination: null })).toBeNull();
  });
});
