import { networks, payments } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";
import { ecPair } from "./ecPair.js";

describe("devnetBitcoinKey", () => {
  it("derives the same regtest P2WPKH key from the same label, and its WIF controls the address", () => {
    const key = devnetBitcoinKey("account 1");
    expect(devnetBitcoinKey("account 1")).toEqual(key);
    expect(devnetBitcoinKey("account 2").address).not.toBe(key.address);
    expect(key.address).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/);
    const pair = ecPair.fromWIF(key.wif, networks.regtest);
    expect(payments.p2wpkh({ pubkey: pair.publicKey, network: networks.regtest }).address).toBe(key.address);
  });
});
