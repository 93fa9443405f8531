import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Client, createClient } from "graphql-ws";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { migrate } from "../../../schema/migrate.js";
import { readOutboxAfter } from "../../../schema/statusEvents.js";
import { transitionRequest } from "../../../schema/transitionRequest.js";
import { withTransaction } from "../../../schema/withTransaction.js";
import { insertTestRequest } from "../../../test/support/insertTestRequest.js";
import { createTestDatabase } from "../../../test/support/testDatabase.js";
import { toStatusUpdate } from "../../events/statusUpdate.js";
import { createStatusBus } from "../../events/createStatusBus.js";
import { type StatusListener, createStatusFanout } from "../../events/createStatusFanout.js";
import { createApiKey } from "../../apiKeys/createApiKey.js";
import { revokeApiKey } from "../../../schema/apiKeys.js";
import { createPostgresRateLimiter } from "../http/rateLimiter.js";
import { routeUpgrades } from "../ws/routeUpgrades.js";
import { createTestGraphqlServer } from "../../../test/support/createTestGraphqlServer.js";
import { GRAPHQL_LIMITS, type createGraphqlServer } from "./createGraphqlServer.js";

describe("requestUpdated over graphql-ws", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const bus = createStatusBus();
  const fanout = createStatusFanout(bus);
  // Every listener the gateway ever registered: a test waits for its subscriptions here, not for a fixed time.
  const registered = new Set<StatusListener>();
  let queries = 0;
  let graphql: ReturnType<typeof createGraphqlServer>;
  const server = createServer();
  let url: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    graphql = createTestGraphqlServer({
      db: { query: ((...args: Parameters<pg.Pool["query"]>) => (queries++, pool.query(...args))) as pg.Pool["query"] },
      statusUpdates: {
        ...fanout,
        add: (key, listener) => {
          registered.add(listener);
          fanout.add(key, listener);
        },
      },
    });
    server.on("upgrade", routeUpgrades({ "/graphql": graphql.handleUpgrade }));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await graphql?.close();
    await new Promise((resolve) => server.close(resolve));
    fanout.close();
    await bus.close();
    await pool?.end();
    await db?.drop();
  });

  /** Publishes the request's newest outbox event as the notifier would. */
  async function publishLatest(requestId: string) {
    const { events } = await readOutboxAfter(pool, 0n, 10_000);
    await bus.publish(toStatusUpdate(events.filter((event) => event.requestId === requestId).at(-1)!, Date.now()));
  }

  it("reads the request behind an update once for all its subscribers, and afresh for the next update", async () => {
    const request = await insertTestRequest(pool);
    const clients: Client[] = [];
    const registeredBefore = registered.size;
    const received: Array<
      Array<{ status: string; request: { status: string; statusEvents: Array<{ status: string }> } }>
    > = [];
    for (let i = 0; i < 20; i++) {
      const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0 });
      clients.push(client);
      const inbox: (typeof received)[number] = [];
      received.push(inbox);
      client.subscribe<any>(
        {
          query: `subscription ($id: String!) { requestUpdated(id: $id) { status request { status statusEvents { status } } } }`,
          variables: { id: request.id },
        },
        { next: ({ data }) => inbox.push(data.requestUpdated), error: () => undefined, complete: () => undefined },
      );
    }
    const until = Date.now() + 20_000;
    const wait = async (done: () => boolean) => {
      while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    // Every subscription is registered once the fan-out has been given 20 more listeners.
    await wait(() => registered.size === registeredBefore + 20);

    await withTransaction(pool, (client) => transitionRequest(client, { requestId: request.id, to: "pending" }));
    queries = 0;
    await publishLatest(request.id);
    await wait(() => received.every((inbox) => inbox.length === 1));
    expect(received.map((inbox) => inbox[0])).toEqual(
      Array.from({ length: 20 }, () => ({
        status: "pending",
        request: { status: "pending", statusEvents: [{ status: "waiting" }, { status: "pending" }] },
      })),
    );
    expect(queries).toBe(2);

    await withTransaction(pool, (client) =>
      transitionRequest(client, { requestId: request.id, to: "failure", failReason: "SLIPPAGE" }),
    );
    queries = 0;
    await publishLatest(request.id);
    await wait(() => received.every((inbox) => inbox.length === 2));
    expect(
      received.every((inbox) => inbox[1].request.status === "failure" && inbox[1].request.statusEvents.length === 3),
    ).toBe(true);
    expect(queries).toBe(2);
    await Promise.all(clients.map((client) => client.dispose()));
  });

  it("refuses a connection with an unknown key, and more than 100 operations at once on one connection", async () => {
    const closed = await new Promise<number>((resolve) => {
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        connectionParams: { apiKey: "cf_unknown" },
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      client.subscribe(
        { query: "subscription { requestUpdated(chainId: 1) { eventId } }" },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
    });
    expect(closed).toBe(4403);

    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0 });
    const errors: unknown[] = [];
    for (let i = 0; i <= GRAPHQL_LIMITS.subscriptionsPerConnection; i++) {
      client.subscribe(
        { query: `subscription { requestUpdated(chainId: ${i + 1}) { eventId } }` },
        { next: () => undefined, error: (error) => errors.push(error), complete: () => undefined },
      );
    }
    const until = Date.now() + 5_000;
    while (errors.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors).toHaveLength(1);
    expect((errors[0] as Array<{ message: string; extensions: { code: string } }>)[0]).toMatchObject({
      message: `at most ${GRAPHQL_LIMITS.subscriptionsPerConnection} operations at once per connection`,
      extensions: { code: "INVALID_INPUT" },
    });
    await client.dispose();
  });

  it("counts graphql-ws operations per key, or per address without one, and refuses those over the limit", async () => {
    const limit = { name: "graphql", windowSeconds: 60, anonymous: 3, standard: 4, elevated: 5 };
    const limited = createTestGraphqlServer({
      db: pool,
      statusUpdates: fanout,
      websocketLimit: {
        deps: {
          limiter: createPostgresRateLimiter(pool),
          now: () => new Date("2026-11-23T10:00:30Z"),
          trustForwardedFor: false,
        },
        limit,
      },
    });
    const limitedServer = createServer();
    limitedServer.on("upgrade", routeUpgrades({ "/graphql": limited.handleUpgrade }));
    limitedServer.listen(0, "127.0.0.1");
    await once(limitedServer, "listening");
    const limitedUrl = `ws://127.0.0.1:${(limitedServer.address() as AddressInfo).port}/graphql`;
    const key = await createApiKey(pool, Buffer.alloc(32, 7), { name: "ws-limits" });
    const outcomes = async (client: Client, operations: number) => {
      const results: string[] = [];
      for (let i = 0; i < operations; i++) {
        // queries and subscription starts count alike
        const query = i % 2 === 0 ? "{ chains { id } }" : `subscription { requestUpdated(chainId: ${i}) { eventId } }`;
        results.push(
          await new Promise<string>((resolve) => {
            client.subscribe<any>(
              { query },
              {
                next: () => resolve("ok"),
                error: (error) =>
                  resolve(
                    (error as Array<{ extensions: { code: string; details: { retryAfterSeconds: number } } }>)[0]
                      .extensions.code,
                  ),
                complete: () => resolve("ok"),
              },
            );
            if (query.startsWith("subscription")) setTimeout(() => resolve("ok"), 200);
          }),
        );
      }
      return results;
    };
    const keyless = createClient({ url: limitedUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
    const keyed = createClient({
      url: limitedUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { apiKey: key.key },
    });
    expect(await outcomes(keyless, 4)).toEqual(["ok", "ok", "ok", "RATE_LIMITED"]);
    expect(await outcomes(keyed, 5)).toEqual(["ok", "ok", "ok", "ok", "RATE_LIMITED"]);
    // A second keyless connection from the same address shares the address's window; the refused connection stays usable
    const again = createClient({ url: limitedUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
    expect(await outcomes(again, 1)).toEqual(["RATE_LIMITED"]);
    const refusal = await new Promise<any>((resolve) =>
      keyless.subscribe(
        { query: "{ chains { id } }" },
        { next: () => undefined, error: resolve, complete: () => undefined },
      ),
    );
    expect(refusal[0]).toMatchObject({
      message: "rate limit of 3 requests per 60 s exceeded; retry after 30 s",
      extensions: {
        code: "RATE_LIMITED",
        details: { retryAfterSeconds: 30, limit: 3, windowSeconds: 60, policy: "graphql" },
      },
    });
    await Promise.all([keyless.dispose(), keyed.dispose(), again.dispose()]);
    await limited.close();
    await new Promise((resolve) => limitedServer.close(resolve));
  });

  it("answers SERVICE_UNAVAILABLE, not the failure's text, when the rate limiter itself fails", async () => {
    const failing = {
      kind: "redis" as const,
      hit: () => Promise.reject(new Error("connect ECONNREFUSED redis://:hunter2@cache")),
      close: async () => undefined,
    };
    const limit = { name: "graphql", windowSeconds: 60, anonymous: 3, standard: 4, elevated: 5 };
    const broken = createTestGraphqlServer({
      db: pool,
      statusUpdates: fanout,
      websocketLimit: { deps: { limiter: failing, now: () => new Date(), trustForwardedFor: false }, limit },
    });
    const brokenServer = createServer();
    brokenServer.on("upgrade", routeUpgrades({ "/graphql": broken.handleUpgrade }));
    brokenServer.listen(0, "127.0.0.1");
    await once(brokenServer, "listening");
    const client = createClient({
      url: `ws://127.0.0.1:${(brokenServer.address() as AddressInfo).port}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const outcome = await new Promise<unknown>((resolve) =>
        client.subscribe({ query: "{ chains { id } }" }, { next: resolve, error: resolve, complete: () => undefined }),
      );
      expect(outcome).toEqual([
        expect.objectContaining({
          message: "rate limit counters are unavailable; retry shortly",
          extensions: { code: "SERVICE_UNAVAILABLE" },
        }),
      ]);
      expect(JSON.stringify(outcome)).not.toContain("hunter2");
    } finally {
      await client.dispose();
      await broken.close();
      await new Promise((resolve) => brokenServer.close(resolve));
    }
  });

  it("ends a subscription to the caller key's requests once the key is revoked", async () => {
    const rechecking = createTestGraphqlServer({ db: pool, statusUpdates: fanout, keyRecheckMs: 50 });
    const recheckServer = createServer();
    recheckServer.on("upgrade", routeUpgrades({ "/graphql": rechecking.handleUpgrade }));
    recheckServer.listen(0, "127.0.0.1");
    await once(recheckServer, "listening");
    const key = await createApiKey(pool, Buffer.alloc(32, 9), { name: "soon-revoked" });
    const client = createClient({
      url: `ws://127.0.0.1:${(recheckServer.address() as AddressInfo).port}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { apiKey: key.key },
    });
    try {
      const statuses: string[] = [];
      let completed = false;
      client.subscribe<any>(
        { query: "subscription { requestUpdated(myKey: true) { status } }" },
        {
          next: ({ data }) => statuses.push(data.requestUpdated.status),
          error: () => undefined,
          complete: () => (completed = true),
        },
      );
      const request = await insertTestRequest(pool, { apiKeyId: key.id });
      // published until the subscription, registered asynchronously, has one
      await expect
        .poll(async () => (await publishLatest(request.id), statuses.length), { timeout: 5_000, interval: 50 })
        .toBeGreaterThan(0);
      await revokeApiKey(pool, key.id);
      await expect.poll(() => completed, { timeout: 5_000 }).toBe(true);
      await withTransaction(pool, (db) => transitionRequest(db, { requestId: request.id, to: "pending" }));
      await publishLatest(request.id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(new Set(statuses)).toEqual(new Set(["waiting"]));
    } finally {
      await client.dispose();
      await rechecking.close();
      await new Promise((resolve) => recheckServer.close(resolve));
    }
  });

  it("streams the changes of every key of the caller's integrator (revoked keys included) and none of another's", async () => {
    const serverKey = Buffer.alloc(32, 7);
    const [watcher, colleague, retired, stranger] = await Promise.all(
      [
        { name: "watcher", integrator: "initech" },
        { name: "colleague", integrator: "initech" },
        { name: "retired", integrator: "initech" },
        { name: "stranger", integrator: "umbrella" },
      ].map((options) => createApiKey(pool, serverKey, options)),
    );
    await revokeApiKey(pool, retired.id);
    const subscribe = (key: string) => {
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { apiKey: key },
      });
      const seen: Array<{ status: string; request: { id: string; referrer: string | null } }> = [];
      client.subscribe<any>(
        { query: "subscription { requestUpdated(myIntegrator: true) { status request { id referrer } } }" },
        { next: ({ data }) => seen.push(data.requestUpdated), error: () => undefined, complete: () => undefined },
      );
      return { client, seen };
    };
    const initech = subscribe(watcher.key);
    const umbrella = subscribe(stranger.key);
    try {
      const ours = await insertTestRequest(pool, { apiKeyId: colleague.id, referrer: "initech-app" });
      const old = await insertTestRequest(pool, { apiKeyId: retired.id });
      const theirs = await insertTestRequest(pool, { apiKeyId: stranger.id, referrer: "umbrella-app" });
      const keyless = await insertTestRequest(pool);
      // published until both subscriptions, registered asynchronously, have their integrator's first request
      await expect
        .poll(
          async () => {
            for (const request of [ours, theirs]) await publishLatest(request.id);
            return initech.seen.length > 0 && umbrella.seen.length > 0;
          },
          { timeout: 5_000, interval: 50 },
        )
        .toBe(true);
      for (const request of [old, keyless]) await publishLatest(request.id);
      await withTransaction(pool, (db) => transitionRequest(db, { requestId: ours.id, to: "pending" }));
      await publishLatest(ours.id);
      await expect.poll(() => initech.seen.some((update) => update.status === "pending")).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ids = (seen: typeof initech.seen) => new Set(seen.map((update) => update.request.id));
      expect(ids(initech.seen)).toEqual(new Set([ours.id, old.id]));
      expect(ids(umbrella.seen)).toEqual(new Set([theirs.id]));
      // Its own requests' referrer, as the integrator sees it everywhere.
      expect(initech.seen.find((update) => update.request.id === ours.id)!.request.referrer).toBe("initech-app");
      expect(umbrella.seen[0].request.referrer).toBe("umbrella-app");
    } finally {
      await Promise.all([initech.client.dispose(), umbrella.client.dispose()]);
    }
  });

  it("refuses myIntegrator without a key, and with another selector", async () => {
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0 });
    // A refused subscription answers one result with errors (or an `error` message): its first error either way.
    const errorOf = (query: string) =>
      new Promise<any>((resolve) =>
        client.subscribe<any>(
          { query },
          {
            next: (result) => resolve(result.errors?.[0]),
            error: (errors) => resolve((errors as any[])[0]),
            complete: () => resolve(undefined),
          },
        ),
      );
    try {
      const anonymous = await errorOf("subscription { requestUpdated(myIntegrator: true) { eventId } }");
      expect(anonymous.extensions.code).toBe("UNAUTHORIZED");
      const both = await errorOf("subscription { requestUpdated(myIntegrator: true, chainId: 1) { eventId } }");
      expect(both.extensions.code).toBe("INVALID_INPUT");
    } finally {
      await client.dispose();
    }
  });
});
