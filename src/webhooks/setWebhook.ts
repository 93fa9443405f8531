import { type WebhookEndpoint, upsertWebhookEndpoint } from "../../schema/webhookEndpoints.js";
import type { Queryable } from "../../schema/queryable.js";
import { parseWebhookHeaders } from "./parseWebhookHeaders.js";
import { type WebhookPolicy, validateWebhookUrl } from "./validateWebhookUrl.js";

/** Sets the key's one webhook endpoint (CLI and GraphQL alike): bad input is an InvalidInputError and writes nothing. */
export async function setWebhook(
  db: Queryable,
  policy: WebhookPolicy,
  input: {
    apiKeyId: string;
    url: string;
    enabled: boolean;
    headers: Record<string, string> | Array<{ name: string; value: string }>;
  },
): Promise<WebhookEndpoint> {
  const url = await validateWebhookUrl(input.url, policy);
  const headers = parseWebhookHeaders(input.headers);
  return upsertWebhookEndpoint(db, { apiKeyId: input.apiKeyId, url: url.href, enabled: input.enabled, headers });
}
