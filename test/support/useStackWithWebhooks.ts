import { afterAll, beforeAll } from "vitest";
import { createApiKey } from "../../src/apiKeys/createApiKey.js";
import { listenForWebhooks } from "./listenForWebhooks.js";
import { type TestStack, startTestStack } from "./startTestStack.js";
import type { WebhookReceiver } from "./startWebhookReceiver.js";

/**
 * The whole stack for the calling describe block with a reader API key whose webhook a receiver listens to: requests
 * quoted with the key are followed by their webhooks and read by their v3 records. `stopIndexers`: every indexer role
 * is stopped once the stack is up (what the chains do is then seen only through POST /transactions/index).
 */
export function useStackWithWebhooks({ stopIndexers = false } = {}) {
  let stack: TestStack | undefined;
  let readerKey: string | undefined;
  let hooks: WebhookReceiver | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
    readerKey = (await createApiKey(stack.pool, stack.serverKey, { name: "reader" })).key;
    hooks = await listenForWebhooks(stack.api.url, readerKey);
    if (stopIndexers) await stack.stopIndexers();
  });
  afterAll(async () => {
    hooks?.close();
    await stack?.stop();
  });
  const ready = <T>(value: T | undefined) => {
    if (value === undefined) throw new Error("the stack is ready only inside tests and hooks");
    return value;
  };
  return {
    stack: () => ready(stack),
    readerKey: () => ready(readerKey),
    hooks: () => ready(hooks),
    /** The request's v3 record, read with the reader key. */
    record: async (requestId: string) => {
      const listed = await fetch(`${ready(stack).api.url}/requests/v3?id=${requestId}`, {
        headers: { "x-api-key": ready(readerKey) },
      }).then((response) => response.json());
      return listed.requests[0];
    },
  };
}
