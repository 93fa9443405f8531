import { describe, expect, it } from "vitest";
import { createSignerNonces, KEPT_NONCES, NONCE_FUTURE_MS, NONCE_PAST_MS } from "./signerNonces.js";

const now = 1_800_000_000_000;
const alice = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("createSignerNonces", () => {
  it("never accepts a nonce twice for a signer, whatever the address case", () => {
    const nonces = createSignerNonces(() => now);
    expect(nonces.refusal(alice, now)).toBeUndefined();
    nonces.use(alice, now);
    expect(nonces.refusal(alice.toLowerCase(), now)).toBe(`Invalid nonce: duplicate nonce ${now}`);
    // Another signer has its own set.
    expect(nonces.refusal("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", now)).toBeUndefined();
    // An older unused nonce is fine while fewer than 100 are kept.
    expect(nonces.refusal(alice, now - 1000)).toBeUndefined();
  });

  it("refuses a nonce not newer than the smallest of the last 100", () => {
    const nonces = createSignerNonces(() => now);
    for (let i = 1; i <= KEPT_NONCES; i++) nonces.use(alice, now - 10_000 + i);
    expect(nonces.refusal(alice, now - 10_000)).toMatch(/not larger than the smallest of the last 100 nonces/);
    // A gap above the smallest is still usable, and using it pushes the smallest out.
    expect(nonces.refusal(alice, now)).toBeUndefined();
    nonces.use(alice, now);
    expect(nonces.refusal(alice, now - 10_000 + 1)).toMatch(/not larger than the smallest/);
    expect(nonces.refusal(alice, now - 10_000 + 2)).toBe(`Invalid nonce: duplicate nonce ${now - 10_000 + 2}`);
  });

  it("refuses nonces outside (now − 2 days, now + 1 day)", () => {
    const nonces = createSignerNonces(() => now);
    expect(nonces.refusal(alice, now - NONCE_PAST_MS)).toMatch(/outside the allowed window/);
    expect(nonces.refusal(alice, now - NONCE_PAST_MS + 1)).toBeUndefined();
    expect(nonces.refusal(alice, now + NONCE_FUTURE_MS)).toMatch(/outside the allowed window/);
    expect(nonces.refusal(alice, now + NONCE_FUTURE_MS - 1)).toBeUndefined();
    // Seconds instead of milliseconds are far in the past.
    expect(nonces.refusal(alice, Math.floor(now / 1000))).toMatch(/outside the allowed window/);
  });
});
