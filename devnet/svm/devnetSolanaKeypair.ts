import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";

/**
 * A Solana keypair derived from a fixed label. Devnet only: the seeds are in this source file, so anyone can
 * spend what these keys hold.
 */
export function devnetSolanaKeypair(label: string): Keypair {
  return Keypair.fromSeed(createHash("sha256").update(`crossfill devnet solana key: ${label}`).digest());
}
