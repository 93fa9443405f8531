import { describe, expect, it } from "vitest";
import { searchTerm } from "./searchTerm.js";

describe("searchTerm", () => {
  it("reads an EVM hash and a Bitcoin txid as transaction hashes, in their canonical forms", () => {
    expect(searchTerm(`0x${"AB".repeat(32)}`)).toMatchObject({
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

  it("reads a wallet as an address by its family's key: EVM lower case, bech32 lower case, base58 as written", () => {
    expect(searchTerm("0x8Ba1f109551bD432803012645Ac136ddd64DBA72").address).toBe(
      "0x8ba1f109551bd432803012645ac136ddd64dba72",
    );
    expect(searchTerm("BCRT1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KYGT080").address).toBe(
      "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
    );
    const solana = "BCYuE7E2KkEpm7ihcGGF175njYcW9UacZKwU3jQDMYjc";
    expect(searchTerm(solana).address).toBe(solana);
    expect(searchTerm("not an address").address).toBeUndefined();
  });
});
