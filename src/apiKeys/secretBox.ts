import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM with a 32-byte server key; the output is iv ‖ tag ‖ ciphertext, so one column holds it. */
export function sealSecret(serverKey: Buffer, plaintext: string): Buffer {
  if (serverKey.length !== 32) throw new Error("the server key must be 32 bytes");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", serverKey, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The inverse of sealSecret; throws when the data was altered or sealed under another key. */
export function openSecret(serverKey: Buffer, sealed: Buffer): string {
  if (serverKey.length !== 32) throw new Error("the server key must be 32 bytes");
  const decipher = createDecipheriv("aes-256-gcm", serverKey, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}
