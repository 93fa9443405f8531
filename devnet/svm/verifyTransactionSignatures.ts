import { createPublicKey, verify } from "node:crypto";
import type { VersionedTransaction } from "@solana/web3.js";

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it.
const ed25519SpkiPrefix = Buffer.from("302a300506032b6570032100", "hex");

/** True when every required signature of the transaction is a valid ed25519 signature of its message. */
export function verifyTransactionSignatures(tx: VersionedTransaction): boolean {
  const message = tx.message.serialize();
  const signers = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures);
  if (tx.signatures.length !== signers.length) return false;
  return signers.every((signer, i) => {
    const key = createPublicKey({
      key: Buffer.concat([ed25519SpkiPrefix, signer.toBuffer()]),
      format: "der",
      type: "spki",
    });
    return verify(null, message, key, tx.signatures[i]);
  });
}
