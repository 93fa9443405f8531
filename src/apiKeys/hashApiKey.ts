import { createHash } from "node:crypto";

/** The lookup hash of an API key: sha256 of its text (keys are 256-bit random, so no salt or stretching is needed). */
export function hashApiKey(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}
