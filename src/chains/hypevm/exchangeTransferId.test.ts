import { describe, expect, it } from "vitest";
import { exchangeTransferId, parseExchangeTransferId } from "./exchangeTransferId.js";

describe("exchangeTransferId", () => {
  const signer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

  it("is 32 bytes of the signer and the nonce, read back as they were", () => {
    const id = exchangeTransferId(signer, 1_800_000_000_123);
    expect(id).toBe(`0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc${(1_800_000_000_123).toString(16).padStart(24, "0")}`);
    expect(parseExchangeTransferId(id)).toEqual({ signer: signer.toLowerCase(), nonce: 1_800_000_000_123 });
    expect(parseExchangeTransferId(id.toUpperCase().replace("0X", "0x"))).toEqual({
      signer: signer.toLowerCase(),
      nonce: 1_800_000_000_123,
    });
  });

  it("reads nothing from what is no id", () => {
    expect(parseExchangeTransferId("0x1234")).toBeUndefined();
    expect(parseExchangeTransferId(`0x${"zz".repeat(32)}`)).toBeUndefined();
    // A nonce past what a millisecond clock reaches exactly is no transfer of ours.
    expect(parseExchangeTransferId(`0x${"ab".repeat(20)}${"ff".repeat(12)}`)).toBeUndefined();
  });
});
