import { createHash } from "node:crypto";
import { networks, payments } from "bitcoinjs-lib";
import { ecPair } from "./ecPair.js";

export type DevnetBitcoinKey = { address: string; wif: string };

/**
 * A regtest key derived from a fixed label, with its bech32 P2WPKH address (bcrt1q…). Devnet only: the
 * seeds are in this source file, so anyone can spend what these keys hold.
 */
export function devnetBitcoinKey(label: string): DevnetBitcoinKey {
  const network = networks.regtest;
  const privateKey = createHash("sha256").update(`crossfill devnet bitcoin key: ${label}`).digest();
  const pair = ecPair.fromPrivateKey(privateKey, { network });
  const { address } = payments.p2wpkh({ pubkey: pair.publicKey, network });
  return { address: address!, wif: pair.toWIF() };
}
