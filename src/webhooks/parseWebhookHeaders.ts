import { InvalidInputError } from "../domain/errors.js";

// Set by the delivery itself: a custom header may not replace them.
const RESERVED = new Set([
  "host",
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-authorization",
  "x-signature-timestamp",
  "x-signature-sha256",
  "x-crossfill-event-id",
  "x-crossfill-delivery-id",
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const MAX_WEBHOOK_HEADERS = 20;

/** Custom headers sent with every webhook request: validated names (not ours), single-line values. */
export function parseWebhookHeaders(
  input: Record<string, string> | Array<{ name: string; value: string }>,
): Record<string, string> {
  const entries = Array.isArray(input)
    ? input.map((header) => [header.name, header.value] as const)
    : Object.entries(input);
  if (entries.length > MAX_WEBHOOK_HEADERS)
    throw new InvalidInputError("INVALID_INPUT", `at most ${MAX_WEBHOOK_HEADERS} custom headers`);
  const headers: Record<string, string> = {};
  for (const [rawName, value] of entries) {
    const name = rawName.trim();
    if (!TOKEN.test(name) || name.length > 100)
      throw new InvalidInputError("INVALID_INPUT", `invalid header name ${JSON.stringify(rawName)}`);
    if (RESERVED.has(name.toLowerCase()))
      throw new InvalidInputError("INVALID_INPUT", `header ${name} is set by the delivery itself`);
    if (typeof value !== "string" || /[\r\n\0]/.test(value) || value.length > 4096)
      throw new InvalidInputError("INVALID_INPUT", `invalid value for header ${name}`);
    headers[name] = value.trim();
  }
  return headers;
}

/** "Name: value" as given on the command line. */
export function parseHeaderLine(line: string): { name: string; value: string } {
  const colon = line.indexOf(":");
  if (colon <= 0) throw new InvalidInputError("INVALID_INPUT", `expected "Name: value", got ${JSON.stringify(line)}`);
  return { name: line.slice(0, colon), value: line.slice(colon + 1) };
}
