import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature } from "./signWebhook.js";

describe("signWebhook", () => {
  it("is the hex HMAC-SHA256 of <timestamp>.<body> keyed with the API key", () => {
    const body = '{"event":"request.status.updated"}';
    const expected = createHmac("sha256", "cf_key").update(`1700000000.${body}`).digest("hex");
    expect(signWebhook("cf_key", 1700000000, body)).toBe(expected);
    expect(verifyWebhookSignature("cf_key", "1700000000", body, expected)).toBe(true);
  });

  it("fails on another key, timestamp, body or a truncated signature", () => {
    const signature = signWebhook("cf_key", 1700000000, "{}");
    expect(verifyWebhookSignature("other", "1700000000", "{}", signature)).toBe(false);
    expect(verifyWebhookSignature("cf_key", "1700000001", "{}", signature)).toBe(false);
    expect(verifyWebhookSignature("cf_key", "1700000000", "{ }", signature)).toBe(false);
    expect(verifyWebhookSignature("cf_key", "1700000000", "{}", signature.slice(0, 10))).toBe(false);
  });
});
