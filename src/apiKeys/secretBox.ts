import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a 32-byte server key; the output is iv ‖ tag ‖ ciphertext, so one column holds it. `boundTo` (the
 * row's id) is authenticated with it: the value opens only for the same id, so it cannot be moved to another row.
 */
export function sealSecret(serverKey: Buffer, plaintext: string, boundTo: string): Buffer {
  if (serverKey.length !== 32) throw new Error("the server key must be 32 bytes");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", serverKey, iv);
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/**
 * The inverse of sealSecret; throws when the data was altered, sealed under another key or bound to another id.
 * `boundTo` undefined opens a value sealed before values were bound (only to re-seal it bound).
 */
export function openSecret(serverKey: Buffer, sealed: Buffer, boundTo: string | undefined): string {
  if (serverKey.length !== 32) throw new Error("the server key must be 32 bytes");
  const decipher = createDecipheriv("aes-256-gcm", serverKey, sealed.subarray(0, IV_BYTES));
  if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, "utf8"));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

/** openSecret, undefined where it would throw: a value that does not open is never used. */
export function openSecretOrUndefined(
  serverKey: Buffer,
  sealed: Buffer,
  boundTo: string | undefined,
): string | undefined {
  try {
    return openSecret(serverKey, sealed, boundTo);
  } catch {
    return undefined;
  }
}
