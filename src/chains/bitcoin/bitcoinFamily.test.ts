import { describe, expect, it } from "vitest";
import { BITCOIN_NATIVE_CURRENCY, bitcoinFamily } from "./bitcoinFamily.js";

const MAINNET = {
  p2wpkh: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
  p2tr: "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
  p2pkh: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
  p2sh: "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
};
const TESTNET = {
  p2wpkh: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
  p2pkh: "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn",
  p2sh: "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc",
};
const REGTEST_P2WPKH = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

describe("bitcoinFamily", () => {
  const mainnet = bitcoinFamily(["mainnet"]).address;
  const testnet = bitcoinFamily(["testnet"]).address;
  const regtest = bitcoinFamily(["regtest"]).address;

  it("accepts every standard address type of its network, as given", () => {
    for (const value of Object.values(MAINNET)) expect(mainnet.parse(value)).toBe(value);
    for (const value of Object.values(TESTNET)) expect(testnet.parse(value)).toBe(value);
    expect(regtest.parse(REGTEST_P2WPKH)).toBe(REGTEST_P2WPKH);
    // regtest shares testnet's base58 prefixes (m/n/2)
    expect(regtest.parse(TESTNET.p2pkh)).toBe(TESTNET.p2pkh);
  });

  it("refuses addresses of another network", () => {
    for (const value of [...Object.values(TESTNET), REGTEST_P2WPKH]) expect(mainnet.parse(value)).toBeUndefined();
    for (const value of [...Object.values(MAINNET), REGTEST_P2WPKH]) expect(testnet.parse(value)).toBeUndefined();
    expect(regtest.parse(TESTNET.p2wpkh)).toBeUndefined();
    expect(regtest.parse(MAINNET.p2wpkh)).toBeUndefined();
  });

  it("keys bech32 in lower case, takes all upper case, refuses mixed case", () => {
    expect(mainnet.parse(MAINNET.p2wpkh.toUpperCase())).toBe(MAINNET.p2wpkh);
    expect(regtest.parse(REGTEST_P2WPKH.toUpperCase())).toBe(REGTEST_P2WPKH);
    expect(mainnet.parse(`bc1qW508${MAINNET.p2wpkh.slice(8)}`)).toBeUndefined();
    expect(mainnet.key(mainnet.parse(MAINNET.p2tr.toUpperCase())!)).toBe(MAINNET.p2tr);
  });

  it("keeps base58 case-sensitive", () => {
    expect(mainnet.parse(MAINNET.p2pkh.toLowerCase())).toBeUndefined();
    expect(mainnet.key(MAINNET.p2pkh)).toBe(MAINNET.p2pkh);
  });

  it("never takes the native currency id, or anything that is not an address", () => {
    const all = bitcoinFamily(["mainnet", "testnet", "regtest"]);
    expect(all.nativeCurrency).toBe(BITCOIN_NATIVE_CURRENCY);
    for (const value of [
      BITCOIN_NATIVE_CURRENCY,
      BITCOIN_NATIVE_CURRENCY.toUpperCase(),
      "",
      "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
      `${MAINNET.p2wpkh.slice(0, -1)}5`,
    ])
      expect(all.address.parse(value)).toBeUndefined();
  });

  it("reads txids: 64 hex digits, no 0x, shown in lower case", () => {
    const family = bitcoinFamily(["mainnet"]);
    expect(family.parseTransactionHash("AB".repeat(32))).toBe("ab".repeat(32));
    for (const value of [`0x${"ab".repeat(32)}`, "ab".repeat(31), `${"ab".repeat(31)}zz`])
      expect(family.parseTransactionHash(value)).toBeUndefined();
  });
});
