import { createHash } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { networks, payments } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetDepositAddressKey } from "../../../devnet/bitcoin/devnetDepositAddressKey.js";
import { depositAddressKeys } from "./depositAddressKeys.js";

// BIP84's test vector: the mnemonic "abandon … about" gives account m/84'/0'/0' = this zpub, whose first receive
// address is bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu. The same key with xpub version bytes:
const BIP84_ZPUB =
  "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";

function zpubToXpub(zpub: string): string {
  // Swap the version bytes (base58check): zpub 0x04b24746 → xpub 0x0488b21e.
  const key = HDKey.fromExtendedKey(zpub, { public: 0x04b24746, private: 0x04b2430c });
  return new HDKey({
    versions: { public: 0x0488b21e, private: 0x0488ade4 },
    depth: key.depth,
    index: key.index,
    parentFingerprint: key.parentFingerprint,
    chainCode: key.chainCode!,
    publicKey: key.publicKey!,
  }).publicExtendedKey;
}

describe("depositAddressKeys", () => {
  it("derives BIP84's receive addresses from the account's extended public key", () => {
    const keys = depositAddressKeys(zpubToXpub(BIP84_ZPUB), "mainnet");
    expect(keys.addressAt(0)).toBe("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu");
    expect(keys.addressAt(1)).toBe("bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g");
    expect(keys.signerAt).toBeUndefined();
  });

  it("spends with the key of the same index from the extended private key", () => {
    const { xpub, xprv } = devnetDepositAddressKey();
    const viewer = depositAddressKeys(xpub, "regtest");
    const spender = depositAddressKeys(xprv, "regtest");
    for (const index of [0, 7, 2 ** 31 - 1]) {
      expect(spender.addressAt(index)).toBe(viewer.addressAt(index));
      const pubkey = Buffer.from(spender.signerAt!(index).publicKey);
      expect(payments.p2wpkh({ pubkey, network: networks.regtest }).address).toBe(viewer.addressAt(index));
    }
    expect(viewer.addressAt(0)).toMatch(/^bcrt1q/);
    expect(viewer.addressAt(1)).not.toBe(viewer.addressAt(0));
  });

  it("refuses a key of another network, an index out of range, and never echoes the key", () => {
    const { xprv } = devnetDepositAddressKey();
    expect(() => depositAddressKeys(xprv, "mainnet")).toThrow(/not an extended key of mainnet/);
    try {
      depositAddressKeys(xprv, "mainnet");
    } catch (error) {
      expect((error as Error).message).not.toContain(xprv);
    }
    const garbage = createHash("sha256").update("x").digest("hex");
    expect(() => depositAddressKeys(garbage, "regtest")).toThrow(/not an extended key/);
    expect(() => depositAddressKeys(devnetDepositAddressKey().xpub, "regtest").addressAt(2 ** 31)).toThrow(/outside/);
    expect(() => depositAddressKeys(devnetDepositAddressKey().xpub, "regtest").addressAt(-1)).toThrow(/outside/);
  });
});
