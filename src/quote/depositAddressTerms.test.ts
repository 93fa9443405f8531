import { describe, expect, it } from "vitest";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import { depositAddressTerms } from "./depositAddressTerms.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const request = testQuoteRequest;

describe("depositAddressTerms", () => {
  it("is the same for the same key and terms, and none without a key", () => {
    expect(depositAddressTerms(request, "key-1")).toMatch(/^[0-9a-f]{64}$/);
    expect(depositAddressTerms({ ...request, includeProtocolData: true }, "key-1")).toBe(
      depositAddressTerms(request, "key-1"),
    );
    expect(depositAddressTerms(request, undefined)).toBeUndefined();
  });

  it("differs with the key or any term a quote agrees to", () => {
    const base = depositAddressTerms(request, "key-1");
    const variants: Partial<QuoteRequest>[] = [
      { amount: 700_000n },
      { tradeType: "EXACT_OUTPUT" },
      { slippageBps: 5_000n },
      { latePaymentSlippageBps: 100n },
      { referrer: "someone" },
      { appFees: [{ recipient: "0x90f79bf6eb2c4f870365e785982e1f101e93b906", bps: 5_000n }] },
      { calls: [{ to: "0x90f79bf6eb2c4f870365e785982e1f101e93b906", value: 0n, data: "0x" }] },
      { sponsorship: { components: ["relay"], bps: 10_000n, capMicroUsd: undefined } },
      { depositAddress: { type: "strict" } },
      { recipient: "0x90f79bf6eb2c4f870365e785982e1f101e93b906" },
      { refundTo: "bcrt1qother" },
      { user: "bcrt1qother" },
    ];
    expect(depositAddressTerms(request, "key-2")).not.toBe(base);
    for (const variant of variants)
      expect(depositAddressTerms({ ...request, ...variant }, "key-1"), JSON.stringify(Object.keys(variant))).not.toBe(
        base,
      );
  });
});
