import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secretBox.js";

describe("secretBox", () => {
  const key = randomBytes(32);

  it("round-trips and never stores the plaintext", () => {
    const sealed = sealSecret(key, "cf_secret-value");
    expect(sealed.toString("utf8")).not.toContain("cf_secret-value");
    expect(openSecret(key, sealed)).toBe("cf_secret-value");
    expect(sealSecret(key, "cf_secret-value").equals(sealed)).toBe(false);
  });

  it("refuses altered data and a different key", () => {
    const sealed = sealSecret(key, "cf_secret-value");
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => openSecret(key, altered)).toThrow();
    expect(() => openSecret(randomBytes(32), sealed)).toThrow();
    expect(() => sealSecret(randomBytes(16), "x")).toThrow(/32 bytes/);
  });
});
