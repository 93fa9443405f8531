import { networks, payments } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { dustThreshold } from "./dustThreshold.js";
import { ecPair } from "./ecPair.js";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";

const pubkey = ecPair.fromWIF(devnetBitcoinKey("dust").wif, networks.regtest).publicKey;
const p2wpkh = payments.p2wpkh({ pubkey });

describe("dustThreshold", () => {
  it("matches bitcoind's thresholds at the default dust relay fee", () => {
    expect(dustThreshold(payments.p2pkh({ pubkey }).output!)).toBe(546n);
    expect(dustThreshold(payments.p2sh({ redeem: p2wpkh }).output!)).toBe(540n);
    expect(dustThreshold(p2wpkh.output!)).toBe(294n);
    expect(dustThreshold(payments.p2wsh({ redeem: { output: p2wpkh.output! } }).output!)).toBe(330n);
    expect(dustThreshold(payments.p2tr({ internalPubkey: pubkey.subarray(1) }).output!)).toBe(330n);
  });

  it("never calls an OP_RETURN output dust", () => {
    expect(dustThreshold(payments.embed({ data: [new Uint8Array(4)] }).output!)).toBe(0n);
  });
});
