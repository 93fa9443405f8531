import { describe, expect, it } from "vitest";
import { searchTerm } from "./searchTerm.js";

describe("searchTerm", () => {
  it("reads an EVM hash and a Bitcoin txid as transaction hashes, in their canonical forms", () => {
    expect(searchTerm(`0x${"AB".repeat(32)}`)).toEqual({
      text: `0x${"AB".repeat(32)}`,
      transactionHash: `0x${"ab".repeat(32)}`,
    });
    expect(searchTerm("CD".repeat(32)).transactionHash).toBe("cd".repeat(32));
  });

  it("leaves a wallet or anything else a plain term", () => {
    expect(searchTerm("0x8ba1f109551bd432803012645ac136ddd64dba72").transactionHash).toBeUndefined();
    expect(searchTerm("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080").transactionHash).toBeUndefined();
    expect(searchTerm(`0x${"ab".repeat(31)}`).transactionHash).toBeUndefined();
  });
});
