import { describe, expect, it } from "vitest";
import { anyAddressKey, anyTransactionHash } from "./vmFamilies.js";

describe("vmFamilies", () => {
  it("keys an address of any known family as that family compares it", () => {
    expect(anyAddressKey("0x8BA1F109551BD432803012645AC136DDD64DBA72")).toBe(
      "0x8ba1f109551bd432803012645ac136ddd64dba72",
    );
    expect(anyAddressKey("BCRT1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KYGT080")).toBe(
      "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
    );
    expect(anyAddressKey("bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8")).toBeUndefined();
    expect(anyAddressKey("0x123")).toBeUndefined();
    expect(anyAddressKey("not an address")).toBeUndefined();
  });

  it("reads a transaction hash of any known family", () => {
    expect(anyTransactionHash(`0x${"Ab".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(anyTransactionHash("Cd".repeat(32))).toBe("cd".repeat(32));
    expect(anyTransactionHash("0xabc")).toBeUndefined();
  });
});
