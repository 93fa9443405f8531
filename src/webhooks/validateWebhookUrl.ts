import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { InvalidInputError } from "../domain/errors.js";
import { isPublicAddress } from "./isPublicAddress.js";

export type WebhookPolicy = {
  /** The devnet and tests: plain http and local receivers are allowed. Never in production. */
  allowPrivate: boolean;
  /** Name → addresses; DNS by default, injectable for tests. */
  resolve?: (host: string) => Promise<string[]>;
};

export const resolveHost = async (host: string): Promise<string[]> =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const invalid = (message: string) => new InvalidInputError("INVALID_INPUT", message);

/**
 * Accepts a webhook URL: https to a host whose every address is public (production), or any http(s) URL on the
 * devnet. The delivery checks the address it connects to again (DNS can change in between: rebinding).
 */
export async function validateWebhookUrl(text: string, policy: WebhookPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("url is not a valid absolute URL");
  }
  if (text.length > 2048) throw invalid("url is longer than 2048 characters");
  if (url.username || url.password) throw invalid("url must not carry credentials");
  if (policy.allowPrivate) {
    if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid("url must be http or https");
    return url;
  }
  if (url.protocol !== "https:") throw invalid("url must be https");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? resolveHost)(host);
    } catch {
      throw invalid(`url host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw invalid(`url host ${host} does not resolve`);
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused) throw invalid(`url host ${host} resolves to a non-public address (${refused})`);
  return url;
}
