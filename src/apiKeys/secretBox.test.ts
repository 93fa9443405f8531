import { randomBytes } from "node:crypto";
import { createCipheriv } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secretBox.js";

describe("secretBox", () => {
  const key = randomBytes(32);

  it("round-trips and never stores the plaintext", () => {
    const sealed = sealSecret(key, "cf_secret-value", "key_a");
    expect(sealed.toString("utf8")).not.toContain("cf_secret-value");
    expect(openSecret(key, sealed, "key_a")).toBe("cf_secret-value");
    expect(sealSecret(key, "cf_secret-value", "key_a").equals(sealed)).toBe(false);
  });

  it("refuses altered data and a different key", () => {
    const sealed = sealSecret(key, "cf_secret-value", "key_a");
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => openSecret(key, altered, "key_a")).toThrow();
    expect(() => openSecret(randomBytes(32), sealed, "key_a")).toThrow();
    expect(() => sealSecret(randomBytes(16), "x", "key_a")).toThrow(/32 bytes/);
  });

  it("attack: a sealed value moved to another row opens for neither that row nor as an unbound value", () => {
    const sealed = sealSecret(key, "cf_secret-of-a", "key_a");
    expect(() => openSecret(key, sealed, "key_b")).toThrow();
    expect(() => openSecret(key, sealed, undefined)).toThrow();
  });

  it("opens a value sealed before values were bound, only when asked for an unbound one", () => {
    // the earlier format: the same layout, no associated data
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const body = Buffer.concat([cipher.update("cf_old", "utf8"), cipher.final()]);
    const legacy = Buffer.concat([iv, cipher.getAuthTag(), body]);
    expect(openSecret(key, legacy, undefined)).toBe("cf_old");
    expect(() => openSecret(key, legacy, "key_a")).toThrow();
  });
});
