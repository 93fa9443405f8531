import { createHmac, timingSafeEqual } from "node:crypto";

/** What an integrator's receiver does: recompute the HMAC with its API key and compare in constant time. */
export function webhookSignatureIsValid(
  apiKey: string,
  timestamp: string | undefined,
  body: string,
  signature: string | undefined,
): boolean {
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  const expected = createHmac("sha256", apiKey).update(`${timestamp}.${body}`).digest();
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
