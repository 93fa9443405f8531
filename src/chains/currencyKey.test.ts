import { describe, expect, it } from "vitest";
import { evmFamily } from "./evm/evmFamily.js";
import { SOLANA_NATIVE_CURRENCY, svmFamily } from "./svm/svmFamily.js";
import { currencyKey } from "./currencyKey.js";

// Two valid base58 keys differing only in the case of one letter: two different mints.
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const MINT_OTHER_CASE = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V";

describe("currencyKey", () => {
  it("keys EVM currencies in lower case, whatever case they are written in", () => {
    expect(currencyKey(evmFamily, "0x5FbDB2315678afecb367f032d93F642f64180aa3")).toBe(
      "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    );
    expect(currencyKey(evmFamily, "0x5fbdb2315678afecb367f032d93f642f64180aa3")).toBe(
      currencyKey(evmFamily, "0x5FBDB2315678AFECB367F032D93F642F64180AA3"),
    );
  });

  it("keys Solana mints as written: two mints differing only by case stay two", () => {
    expect(svmFamily.address.parse(MINT_OTHER_CASE)).toBe(MINT_OTHER_CASE);
    expect(currencyKey(svmFamily, MINT)).toBe(MINT);
    expect(currencyKey(svmFamily, MINT_OTHER_CASE)).toBe(MINT_OTHER_CASE);
    expect(currencyKey(svmFamily, SOLANA_NATIVE_CURRENCY)).toBe(SOLANA_NATIVE_CURRENCY);
  });
});
