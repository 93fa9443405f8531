import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { postGraphql } from "./support/postGraphql.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const QUOTE = `mutation ($input: CreateQuoteInput!) {
  createQuote(input: $input) {
    requestId
    steps { id kind requestId items { status data check { endpoint method } } }
    fees { relayer { amount currency { symbol } } }
    details { operation currencyIn { amount } currencyOut { amount minimumAmount } isFixedRate timeEstimate route { origin { router } } }
    protocolV2 { orderId paymentDetails { chainId depository amount } }
  }
}`;

const FINAL = new Set(["success", "failure", "refund"]);

describe("push channels, end to end: graphql-ws and the /ws feed follow an intent", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("quotes through the createQuote mutation, and both channels receive pending, submitted, success in order", async () => {
    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[4];
    const wsBase = stack.api.url.replace(/^http/, "ws");
    // the API authenticates keys by their hash; the sealing key only matters to webhooks
    const key = await createApiKey(stack.pool, randomBytes(32), { name: "push-e2e" });

    const quoted = await postGraphql(
      stack.api.url,
      QUOTE,
      {
        input: {
          user: user.address,
          recipient: stack.devnet.accounts[3].address,
          ...route(origin, destination),
          amount: "200000000000000000",
          tradeType: "EXACT_INPUT",
        },
      },
      key.key,
    );
    expect(quoted.errors).toBeUndefined();
    const quote = quoted.data.createQuote;
    expect(quote.steps.map((step: { id: string }) => step.id)).toEqual(["deposit"]);
    expect(quote.steps[0].items[0].check.endpoint).toBe(`/intents/status/v3?requestId=${quote.requestId}`);
    expect(quote.details).toMatchObject({
      operation: "bridge",
      isFixedRate: true,
      currencyIn: { amount: "200000000000000000" },
    });
    expect(BigInt(quote.details.currencyOut.amount)).toBe(200000000000000000n - BigInt(quote.fees.relayer.amount));
    const requestId: string = quote.requestId;

    // graphql-ws on /graphql
    const client = createClient({
      url: `${wsBase}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { apiKey: key.key },
    });
    const viaGraphql: Array<{ status: string; requestStatus: string; at: number }> = [];
    const graphqlDone = new Promise<void>((resolve, reject) => {
      client.subscribe<any>(
        {
          query: `subscription ($id: String!) { requestUpdated(id: $id) { eventId status updatedAt request { id status statusEvents { status } } } }`,
          variables: { id: requestId },
        },
        {
          next: ({ data, errors }) => {
            if (errors) return reject(new Error(JSON.stringify(errors)));
            const update = data.requestUpdated;
            viaGraphql.push({ status: update.status, requestStatus: update.request.status, at: Date.now() });
            if (FINAL.has(update.status)) resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });

    // and every request of the caller's key, on the same connection
    const viaKey: string[] = [];
    const keyDone = new Promise<void>((resolve, reject) => {
      client.subscribe<any>(
        { query: "subscription { requestUpdated(myKey: true) { status request { id } } }" },
        {
          next: ({ data, errors }) => {
            if (errors) return reject(new Error(JSON.stringify(errors)));
            expect(data.requestUpdated.request.id).toBe(requestId);
            viaKey.push(data.requestUpdated.status);
            if (FINAL.has(data.requestUpdated.status)) resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });

    // the websocket feed on /ws
    const feed = new WebSocket(`${wsBase}/ws`);
    await once(feed, "open");
    const viaFeed: Array<{ body: any; at: number }> = [];
    const feedDone = new Promise<void>((resolve) => {
      feed.on("message", (raw) => {
        const message = JSON.parse(raw.toString());
        if (message.type !== undefined || message.event !== "request.status.updated") return;
        viaFeed.push({ body: message, at: Date.now() });
        if (FINAL.has(message.data.status)) resolve();
      });
    });
    feed.send(JSON.stringify({ type: "subscribe", event: "request.status.updated", filters: { id: requestId } }));
    const [ack] = await once(feed, "message");
    expect(JSON.parse(ack.toString())).toMatchObject({ type: "subscribed", filters: { id: requestId } });
    // the graphql-ws subscription is registered once the socket is up; give it the same head start
    await new Promise((resolve) => setTimeout(resolve, 200));

    const hashes = await sendSteps(
      { steps: quote.steps.map((step: any) => ({ ...step, items: step.items })) },
      user,
      origin,
    );
    await Promise.all([graphqlDone, feedDone, keyDone]);

    // 'waiting' was written with the quote, before the subscriptions: whether it arrives depends on timing
    const feedStatuses = viaFeed.map((entry) => entry.body.data.status).filter((status) => status !== "waiting");
    const graphqlStatuses = viaGraphql.map((entry) => entry.status).filter((status) => status !== "waiting");
    expect(feedStatuses).toEqual(["pending", "submitted", "success"]);
    expect(graphqlStatuses).toEqual(["pending", "submitted", "success"]);
    expect(viaKey.filter((status) => status !== "waiting")).toEqual(["pending", "submitted", "success"]);
    // thin events are re-read: the request a success update carries is the successful request
    expect(viaGraphql.at(-1)).toMatchObject({ requestStatus: "success" });

    const success = viaFeed.at(-1)!.body;
    expect(success).toEqual({
      event: "request.status.updated",
      timestamp: expect.any(Number),
      data: {
        status: "success",
        inTxHashes: [hashes.deposit],
        txHashes: [expect.stringMatching(/^0x[0-9a-f]{64}$/)],
        updatedAt: expect.any(Number),
        originChainId: origin.id,
        destinationChainId: destination.id,
        depositAddress: null,
        requestId,
        referrer: null,
        details: expect.any(Object),
        failReason: "N/A",
        refundFailReason: "N/A",
      },
    });
    const pending = viaFeed.find((entry) => entry.body.data.status === "pending")!.body;
    expect(pending.data.inTxHashes).toEqual([hashes.deposit]);

    const latencies = viaFeed.map((entry) => entry.at - entry.body.data.updatedAt);
    console.log(`status change (transaction time) → /ws client, ms: ${latencies.join(", ")}`);

    // `success` comes from the solver's receipt, recorded with its fill: read at once, `fills` has it.
    const after = await postGraphql(
      stack.api.url,
      `query ($id: String!) { request(id: $id) { status deposits { txHash } fills { txHash chainId } statusEvents { status } } }`,
      { id: requestId },
    );
    expect(after.data.request).toEqual({
      status: "success",
      deposits: [{ txHash: hashes.deposit }],
      fills: [{ txHash: success.data.txHashes[0], chainId: destination.id }],
      statusEvents: [{ status: "waiting" }, { status: "pending" }, { status: "submitted" }, { status: "success" }],
    });

    feed.close();
    await client.dispose();
  });

  it("refuses an over-deep subscription over graphql-ws with the same limits as HTTP", async () => {
    const client = createClient({
      url: `${stack.api.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const nest = (depth: number): string => (depth <= 1 ? "symbol" : `chain { currencies { ${nest(depth - 2)} } }`);
    const errors = await new Promise<any[]>((resolve) => {
      client.subscribe(
        {
          query: `subscription { requestUpdated(chainId: 1) { request { originChain { currencies { ${nest(6)} } } } } }`,
        },
        { next: () => resolve([]), error: (error) => resolve(error as any[]), complete: () => resolve([]) },
      );
    });
    expect(errors[0].message).toMatch(/depth limit/i);
    expect(errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const invalid = await new Promise<any[]>((resolve) => {
      client.subscribe(
        { query: 'subscription { requestUpdated(wallet: "0x12") { eventId } }' },
        {
          next: (result) => resolve(result.errors as any[]),
          error: (error) => resolve(error as any[]),
          complete: () => resolve([]),
        },
      );
    });
    expect(invalid[0].extensions.code).toBe("INVALID_INPUT");
    await client.dispose();
  });

  it("counts /graphql operations against the caller's rate limit and refuses unknown keys, as REST does", async () => {
    const ask = (headers: Record<string, string> = {}) =>
      fetch(`${stack.api.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query: "{ chains { id } }" }),
      });
    const answers = await Promise.all(Array.from({ length: 25 }, () => ask()));
    const statuses = answers.map((answer) => answer.status);
    // 10 a second anonymously: 25 at once leave at least 5 refused, even across a window boundary
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ errorCode: "RATE_LIMITED" });

    const unknown = await ask({ "x-api-key": "cf_unknown" });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ errorCode: "UNAUTHORIZED" });
  });
});
