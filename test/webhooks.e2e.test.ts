import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { postGraphql } from "./support/postGraphql.js";
import { quoteWithKey } from "./support/quoteWithKey.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";
import { webhookSignatureIsValid } from "./support/webhookSignatureIsValid.js";

type Received = {
  status: string;
  eventId: string;
  attempt: number;
  valid: boolean;
  fresh: boolean;
  answered: number;
  team?: string;
};

describe("webhooks, end to end: a local receiver follows an intent", () => {
  let stack: TestStack;
  let server: http.Server;
  const received: Received[] = [];
  let apiKey = "";
  let pendingFailures = 2;

  beforeAll(async () => {
    stack = await startTestStack({ webhookRetryBaseMs: 100 });
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const timestamp = req.headers["x-signature-timestamp"] as string | undefined;
        const valid = webhookSignatureIsValid(
          apiKey,
          timestamp,
          body,
          req.headers["x-signature-sha256"] as string | undefined,
        );
        const status = JSON.parse(body).data.status as string;
        // The first two posts of `pending` fail: the delivery is retried, and `submitted` waits for it.
        const answered = !valid ? 401 : status === "pending" && pendingFailures-- > 0 ? 500 : 204;
        received.push({
          status,
          eventId: req.headers["x-crossfill-event-id"] as string,
          attempt: Number(req.headers["x-crossfill-delivery-attempt"]),
          valid,
          fresh: Math.abs(Date.now() / 1000 - Number(timestamp)) < 60,
          answered,
          team: req.headers["x-team"] as string | undefined,
        });
        res.statusCode = answered;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await stack?.stop();
  });

  it("receives every status change signed with the API key, in order, retried through two 500s", async () => {
    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[4];
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "webhooks-e2e" });
    apiKey = key.key;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/crossfill`;
    const set = await postGraphql(
      stack.api.url,
      `mutation ($url: String!, $headers: [WebhookHeaderInput!]) { setWebhook(url: $url, headers: $headers) { url enabled } }`,
      {
        url,
        headers: [{ name: "X-Team", value: "payments" }],
      },
      key.key,
    );
    expect(set).toEqual({ data: { setWebhook: { url, enabled: true } } });

    const quote = await quoteWithKey(stack.api.url, key.key, {
      user,
      recipient: stack.devnet.accounts[3],
      origin,
      destination,
    });
    const requestId = quote.requestId;
    await sendSteps(quote, user, origin);

    const deadline = Date.now() + 60_000;
    while (!received.some((r) => r.status === "success" && r.answered === 204)) {
      if (Date.now() > deadline) throw new Error(`no success webhook; got ${JSON.stringify(received)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(received.every((r) => r.valid && r.fresh && r.team === "payments")).toBe(true);
    const delivered = received.filter((r) => r.answered === 204);
    expect(delivered.map((r) => r.status).filter((s) => ["pending", "submitted", "success"].includes(s))).toEqual([
      "pending",
      "submitted",
      "success",
    ]);
    expect(delivered[0].status).toBe("waiting");
    // Each event once, in the outbox's order; the failed posts of `pending` carried the same event id.
    const ids = delivered.map((r) => Number(r.eventId.replace("evt_", "")));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const pendingPosts = received.filter((r) => r.status === "pending");
    expect(pendingPosts.map((r) => [r.answered, r.attempt])).toEqual([
      [500, 1],
      [500, 2],
      [204, 3],
    ]);
    expect(new Set(pendingPosts.map((r) => r.eventId)).size).toBe(1);
    // No later event of the request was posted before `pending` got through.
    const firstPendingOk = received.findIndex((r) => r.status === "pending" && r.answered === 204);
    expect(received.slice(0, firstPendingOk).every((r) => r.status === "pending" || r.status === "waiting")).toBe(true);

    const log = await postGraphql(
      stack.api.url,
      `{ webhookDeliveries(first: 20) { edges { node { requestId status attempts lastStatusCode latencyMs } } } }`,
      {},
      key.key,
    );
    const nodes = log.data.webhookDeliveries.edges.map((edge: any) => edge.node);
    expect(
      nodes.every(
        (node: any) =>
          node.requestId === requestId &&
          node.status === "DELIVERED" &&
          node.lastStatusCode === 204 &&
          node.latencyMs >= 0,
      ),
    ).toBe(true);
    expect(nodes.find((node: any) => node.attempts === 3)).toBeDefined();
  });
});
