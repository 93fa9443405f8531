import { createHash } from "node:crypto";
import { HDKey } from "@scure/bip32";

export type DevnetDepositAddressKey = { xpub: string; xprv: string };

/**
 * The devnet's BIP84 account key for deposit addresses (m/84'/1'/0' of a seed derived from a fixed label), as the
 * extended public key the gateway derives addresses from and the extended private key the worker sweeps with.
 * Devnet only: the seed is in this source file, so anyone can spend what its addresses hold.
 */
export function devnetDepositAddressKey(): DevnetDepositAddressKey {
  const seed = createHash("sha256").update("crossfill devnet bitcoin deposit addresses").digest();
  const account = HDKey.fromMasterSeed(seed, { public: 0x043587cf, private: 0x04358394 }).derive("m/84'/1'/0'");
  return { xpub: account.publicExtendedKey, xprv: account.privateExtendedKey };
}
