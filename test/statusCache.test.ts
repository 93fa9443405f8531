import { testRouteLimits } from "./support/testRateLimits.js";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startNotifier, type RunningNotifier } from "../jobs/startNotifier.js";
import { getStatusRecord } from "../schema/statusRecord.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import { type StatusBus, createStatusBus } from "../src/events/createStatusBus.js";
import { type GatewayServer, startGatewayServer } from "../src/gateway/server.js";
import { createTestQuoteEngine } from "./support/createTestGraphqlServer.js";
import { openStatusFeed } from "./support/openStatusFeed.js";
import { startTcpProxy } from "./support/startTcpProxy.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { useMigratedDatabase } from "./support/useMigratedDatabase.js";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const RANK: Record<string, number> = { waiting: 0, pending: 1, submitted: 2, success: 3 };
const STEPS: RequestStatus[] = ["pending", "submitted", "submitted", "success"];

/** A `/ws` client of one gateway following a chain: the newest status pushed of each request, in arrival order. */
async function followFeed(url: string, chainId: number) {
  const pushed = new Map<string, { status: string; updatedAt: unknown }>();
  const waiters: Array<() => void> = [];
  const feed = await openStatusFeed(url, { chainId }, (data) => {
    pushed.set(data.requestId, { status: data.status, updatedAt: data.updatedAt });
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error("the feed did not push the change in 10 s");
      await new Promise<void>((wake) => {
        waiters.push(wake);
        setTimeout(wake, 100);
      });
    }
  };
  return { pushed, until, close: feed.close };
}

async function lookup(url: string, requestId: string) {
  const response = await fetch(`${url}/intents/status/v3?requestId=${requestId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & { status: string };
}

/**
 * Two gateways on one Postgres, each with its status cache (a ttl far beyond the test, so only the bus can make
 * an entry fresh) and its own Redis subscription; the real notifier publishes the outbox on a third connection.
 */
describe("status lookups served from two gateways' caches", () => {
  const db = useMigratedDatabase({ max: 8 });
  const buses: StatusBus[] = [];
  const gateways: GatewayServer[] = [];
  let notifier: RunningNotifier;
  const logger = pino({ level: "warn" });
  const prefix = `test-status-cache-${randomBytes(4).toString("hex")}`;

  /** A gateway with its status cache (a ttl far beyond the test, so only the bus can make an entry fresh). */
  const startCachedGateway = (bus: StatusBus) => {
    const { registry, adapters, quoteEngine } = createTestQuoteEngine(db.pool);
    return startGatewayServer({
      host: "127.0.0.1",
      port: 0,
      statusBus: bus,
      pool: db.pool,
      registry,
      adapters,
      logger,
      quoteEngine,
      statusCache: { ttlMs: 600_000, maxEntries: 1_000 },
      // Lookups in tight loops: not counted, as in the other test stacks.
      routeLimits: testRouteLimits(),
    });
  };

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const bus = createStatusBus({ redisUrl, prefix });
      buses.push(bus);
      gateways.push(await startCachedGateway(bus));
      await bus.ready();
    }
    const publisher = createStatusBus({ redisUrl, prefix });
    buses.push(publisher);
    notifier = await startNotifier({ pool: db.pool, publish: publisher.publish, logger, everyMs: 10 });
  });
  afterAll(async () => {
    await notifier?.close();
    for (const gateway of gateways) await gateway.close();
    for (const bus of buses) await bus.close();
  });

  const step = (requestId: string, to: RequestStatus) =>
    withTransaction(db.pool, (client) => transitionRequest(client, { requestId, to }));

  it("answers each change on a gateway as soon as that gateway has pushed it, never its cached older status", async () => {
    const request = await insertTestRequest(db.pool);
    const feeds = await Promise.all(gateways.map((gateway) => followFeed(gateway.url, request.originChainId)));
    for (const gateway of gateways) {
      expect((await lookup(gateway.url, request.id)).status).toBe("waiting");
      expect((await lookup(gateway.url, request.id)).status).toBe("waiting");
    }
    for (const to of STEPS) {
      expect((await step(request.id, to)).applied).toBe(true);
      const stored = (await getStatusRecord(db.pool, request.id))!;
      for (const [n, gateway] of gateways.entries()) {
        // Pushed this very change: not merely one more push (the request's creation may be pushed late, an update
        // twice), which a cache may rightly still answer.
        await feeds[n].until(() => {
          const last = feeds[n].pushed.get(request.id);
          return last?.status === to && last.updatedAt === stored.updatedAt.getTime();
        });
        const answer = await lookup(gateway.url, request.id);
        expect(answer.status).toBe(to);
        // the whole record, not only its status, is the one Postgres holds now
        expect(answer.updatedAt).toBe(stored.updatedAt.getTime());
      }
    }
    for (const feed of feeds) feed.close();
  });

  it("under constant polling of both gateways, no answer is older than what its gateway pushed before the call", async () => {
    const requests = await Promise.all(Array.from({ length: 8 }, () => insertTestRequest(db.pool)));
    const feeds = await Promise.all(gateways.map((gateway) => followFeed(gateway.url, requests[0].originChainId)));
    let polling = true;
    let answers = 0;
    const violations: string[] = [];
    const pollers = gateways.flatMap((gateway, n) =>
      requests.map(async (request) => {
        while (polling) {
          const pushedBefore = feeds[n].pushed.get(request.id)?.status ?? "waiting";
          const answer = await lookup(gateway.url, request.id);
          answers += 1;
          if (RANK[answer.status] < RANK[pushedBefore])
            violations.push(`gateway ${n} answered ${answer.status} after pushing ${pushedBefore} (${request.id})`);
        }
      }),
    );
    for (const to of STEPS) {
      await Promise.all(requests.map((request) => step(request.id, to)));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    for (const feed of feeds)
      await feed.until(() => requests.every((request) => feed.pushed.get(request.id)?.status === "success"));
    polling = false;
    await Promise.all(pollers);
    expect(violations).toEqual([]);
    expect(answers).toBeGreaterThan(100);
    for (const gateway of gateways)
      for (const request of requests) expect((await lookup(gateway.url, request.id)).status).toBe("success");
    for (const feed of feeds) feed.close();
  });

  it("answers a change made while the gateway's Redis subscription was down once it is back, not its cached status", async () => {
    const redis = new URL(redisUrl);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const bus = createStatusBus({ redisUrl: `redis://${proxy.address}`, prefix });
    const connection: boolean[] = [];
    bus.onConnection((subscribed) => connection.push(subscribed));
    const gateway = await startCachedGateway(bus);
    try {
      await bus.ready();
      const request = await insertTestRequest(db.pool);
      const watching = await followFeed(gateways[0].url, request.originChainId);
      expect((await step(request.id, "pending")).applied).toBe(true);
      await vi.waitFor(async () => expect((await lookup(gateway.url, request.id)).status).toBe("pending"));
      expect((await lookup(gateway.url, request.id)).status).toBe("pending"); // cached now

      proxy.cut();
      await vi.waitFor(() => expect(connection).toEqual([false]));
      expect((await step(request.id, "success")).applied).toBe(true);
      // published (another gateway got it) while this one could not hear it
      await watching.until(() => watching.pushed.get(request.id)?.status === "success");
      proxy.restore();
      await vi.waitFor(() => expect(connection).toEqual([false, true]), { timeout: 10_000 });
      expect((await lookup(gateway.url, request.id)).status).toBe("success");
      watching.close();
    } finally {
      await gateway.close();
      await bus.close();
      await proxy.close();
    }
  });
});
