import { describe, expect, it } from "vitest";
import { evmFamily } from "./evmFamily.js";

const CHECKSUMMED = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";

describe("evmFamily", () => {
  it("accepts 20 bytes of hex in any case, shows them checksummed and compares them in lower case", () => {
    expect(evmFamily.address.parse(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
    expect(evmFamily.address.parse(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(CHECKSUMMED);
    expect(evmFamily.address.key(CHECKSUMMED)).toBe(CHECKSUMMED.toLowerCase());
  });

  it("refuses anything else", () => {
    for (const value of ["0x123", CHECKSUMMED.slice(2), "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", ""])
      expect(evmFamily.address.parse(value)).toBeUndefined();
  });

  it("reads transaction hashes", () => {
    expect(evmFamily.parseTransactionHash(`0x${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(evmFamily.parseTransactionHash("0x1234")).toBeUndefined();
  });
});
