import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { SOLANA_NATIVE_CURRENCY, decodeBase58, svmFamily } from "./svmFamily.js";

const key = bs58.encode(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
const signature = bs58.encode(Uint8Array.from({ length: 64 }, (_, i) => 255 - i));

describe("svmFamily", () => {
  it("takes a 32-byte base58 key as an address, exactly as written", () => {
    expect(svmFamily.address.parse(key)).toBe(key);
    expect(svmFamily.address.key(key)).toBe(key);
    expect(svmFamily.address.parse("ATokenGPvbdGVxr1b2hvZbsiqW5xWrc5ptdmxmWmctJA")).toBe(
      "ATokenGPvbdGVxr1b2hvZbsiqW5xWrc5ptdmxmWmctJA",
    );
  });

  it("refuses other lengths, non-base58 characters, other families and the native id", () => {
    for (const refused of [
      bs58.encode(new Uint8Array(31).fill(7)),
      bs58.encode(new Uint8Array(33).fill(7)),
      `${key.slice(0, -1)}0`,
      `${key.slice(0, -1)}l`,
      ` ${key}`,
      "",
      "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
      "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
      SOLANA_NATIVE_CURRENCY,
    ])
      expect(svmFamily.address.parse(refused), refused).toBeUndefined();
  });

  it("reads another case as another key, never the same one (base58 has one spelling of each)", () => {
    const lower = key.toLowerCase();
    expect(svmFamily.address.parse(lower) === undefined || svmFamily.address.key(lower) !== key).toBe(true);
  });

  it("takes a 64-byte base58 signature as a transaction hash, and refuses anything else", () => {
    expect(svmFamily.parseTransactionHash(signature)).toBe(signature);
    expect(svmFamily.parseTransactionHash(key)).toBeUndefined();
    expect(svmFamily.parseTransactionHash(`0x${"ab".repeat(32)}`)).toBeUndefined();
    expect(svmFamily.parseTransactionHash("cd".repeat(32))).toBeUndefined();
    expect(svmFamily.parseTransactionHash(`${signature}1`)).toBeUndefined();
  });

  it("refuses a spelling no encoder writes (leading zero bytes are leading '1's, one each)", () => {
    const zeros = new Uint8Array(32);
    zeros[31] = 9;
    const canonical = bs58.encode(zeros);
    expect(decodeBase58(canonical, 32)).toEqual(zeros);
    expect(decodeBase58(`1${canonical}`, 32)).toBeUndefined();
    expect(decodeBase58("1".repeat(100), 32)).toBeUndefined();
  });
});
