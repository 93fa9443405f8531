import { createHmac, timingSafeEqual } from "node:crypto";

/** The spec's signature: hex HMAC-SHA256 over `<timestamp>.<body>` keyed with the API key. */
export function signWebhook(apiKey: string, timestamp: number, body: string): string {
  return createHmac("sha256", apiKey).update(`${timestamp}.${body}`).digest("hex");
}

/** What a receiver does, in constant time (also used by our own tests). */
export function verifyWebhookSignature(apiKey: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(apiKey, Number(timestamp), body), "hex");
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
