import { expect } from "vitest";
import { postGraphql } from "./postGraphql.js";
import { type WebhookReceiver, startWebhookReceiver } from "./startWebhookReceiver.js";

/** A webhook receiver set as the key's webhook (GraphQL setWebhook): it gets the key's requests' status updates. */
export async function listenForWebhooks(apiUrl: string, apiKey: string): Promise<WebhookReceiver> {
  const hooks = await startWebhookReceiver(apiKey);
  const set = await postGraphql(
    apiUrl,
    `mutation ($url: String!) { setWebhook(url: $url) { enabled } }`,
    { url: hooks.url },
    apiKey,
  );
  expect(set).toEqual({ data: { setWebhook: { enabled: true } } });
  return hooks;
}

/** The status updates of one request a receiver got, signed validly, in arrival order. */
export function webhooksOf(hooks: WebhookReceiver, requestId: string): Array<Record<string, any>> {
  const mine = hooks.received.filter((hook) => hook.body.data.requestId === requestId);
  expect(mine.every((hook) => hook.valid && hook.body.event === "request.status.updated")).toBe(true);
  return mine.map((hook) => hook.body.data);
}
