import { parseArgs } from "node:util";
import type pg from "pg";
import { findApiKeys } from "../schema/apiKeys.js";
import { type WebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints } from "../schema/webhookEndpoints.js";
import { parseHeaderLine } from "../src/webhooks/parseWebhookHeaders.js";
import { setWebhook } from "../src/webhooks/setWebhook.js";
import type { WebhookPolicy } from "../src/webhooks/validateWebhookUrl.js";

export const WEBHOOKS_USAGE = `usage: crossfill webhooks set --key <key id> --url <url> [--header "Name: value"]… [--disable]
       crossfill webhooks set --key <key id> --disable          (keeps the URL)
       crossfill webhooks show [--key <key id>]`;

// Header values may be credentials of the receiver's own: shown by name only.
const describe = (endpoint: WebhookEndpoint) =>
  [
    endpoint.apiKeyId,
    endpoint.url,
    endpoint.enabled
      ? "enabled"
      : `disabled (${endpoint.disabledReason ?? "-"}${endpoint.disabledAt ? `, ${endpoint.disabledAt.toISOString()}` : ""})`,
    `headers: ${Object.keys(endpoint.headers).sort().join(", ") || "-"}`,
  ].join("\t");

/** `crossfill webhooks …`: returns the text to print. */
export async function runWebhooksCommand(pool: pg.Pool, policy: WebhookPolicy, argv: string[]): Promise<string> {
  const [action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      key: { type: "string" },
      url: { type: "string" },
      header: { type: "string", multiple: true },
      disable: { type: "boolean", default: false },
    },
    strict: true,
  });
  switch (action) {
    case "set": {
      if (!values.key) throw new Error(`--key is required\n${WEBHOOKS_USAGE}`);
      const [key] = await findApiKeys(pool, [values.key], []);
      if (!key || key.revokedAt) throw new Error(`no active key with id ${values.key}`);
      const existing = await getWebhookEndpoint(pool, key.id);
      const url = values.url ?? (values.disable ? existing?.url : undefined);
      if (!url) throw new Error(`--url is required\n${WEBHOOKS_USAGE}`);
      const headers = values.header ? values.header.map(parseHeaderLine) : (existing?.headers ?? {});
      return describe(await setWebhook(pool, policy, { apiKeyId: key.id, url, enabled: !values.disable, headers }));
    }
    case "show": {
      const endpoints = values.key
        ? [await getWebhookEndpoint(pool, values.key)].filter((e) => e !== undefined)
        : await listWebhookEndpoints(pool);
      return endpoints.length === 0 ? "no webhook endpoints" : endpoints.map(describe).join("\n");
    }
    default:
      throw new Error(WEBHOOKS_USAGE);
  }
}
