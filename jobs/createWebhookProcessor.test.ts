import { randomBytes } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../schema/migrate.js";
import { ensureNotifyCursor } from "../schema/notifyCursor.js";
import { readOutboxAfter } from "../schema/statusEvents.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import {
  getWebhookDelivery,
  listWebhookDeliveries,
  replayWebhookDelivery,
  webhookAttemptsOf,
} from "../schema/webhookDeliveries.js";
import { getWebhookEndpoint } from "../schema/webhookEndpoints.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { getWebhookSecretCipher } from "../schema/apiKeys.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import { createWebhookPoster } from "../src/webhooks/postWebhook.js";
import { sendTestWebhook } from "../src/webhooks/sendTestWebhook.js";
import { setWebhook } from "../src/webhooks/setWebhook.js";
import { verifyWebhookSignature } from "../src/webhooks/signWebhook.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { insertTestDelivery } from "../test/support/insertTestDelivery.js";
import { freePort } from "../devnet/freePort.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { toStatusUpdate } from "../src/events/statusUpdate.js";
import { createQueueBackend } from "./queueBackend.js";
import { QUEUES, WEBHOOK_JOB_OPTIONS, type WebhookJob, webhookJobId } from "./queues.js";
import { createWebhookProcessor } from "./createWebhookProcessor.js";
import type { EndpointGatePolicy } from "./createEndpointGate.js";
import { WEBHOOK_CURSOR, createWebhookFanout, startWebhookFanout } from "./createWebhookFanout.js";

type Received = {
  status: string;
  eventId: string;
  attempt: string;
  replay: string | undefined;
  valid: boolean;
  custom: string | undefined;
};

/** Real Postgres, real BullMQ on Redis, a real HTTP receiver on 127.0.0.1; only the retry base is shrunk (20 ms). */
describe("webhook delivery", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const serverKey = randomBytes(32);
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 8 });
    // Dropping the database at the end ends idle clients: not a test failure.
    pool.on("error", () => undefined);
    await migrate(pool);
    // The fan-out's cursor starts at the outbox's end when first created: created before any test request.
    await ensureNotifyCursor(pool, WEBHOOK_CURSOR);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  /** A delivery worker on its own queues (BullMQ on Redis), as startWorker runs it; retries shrunk to 20 ms. */
  function startDeliveryWorker(
    name: string,
    options: { concurrency: number; timeoutMs?: number; endpoints?: EndpointGatePolicy },
  ) {
    const queues = createQueueBackend({
      databaseUrl: db.url,
      redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      prefix: `test-${db.name}-${name}`,
      onError: () => undefined,
    });
    const queue = queues.createQueue<WebhookJob>(QUEUES.webhook);
    const enqueue = async (job: WebhookJob, options: { jobId: string; delayMs: number }) => {
      await queue.add("deliver", job, { ...WEBHOOK_JOB_OPTIONS, jobId: options.jobId, delay: options.delayMs });
    };
    const poster = createWebhookPoster({ allowPrivate: true, timeoutMs: options.timeoutMs });
    queues.createWorker<WebhookJob>(
      QUEUES.webhook,
      createWebhookProcessor({
        pool,
        serverKey,
        poster,
        enqueue,
        logger,
        retryBaseMs: 20,
        endpoints: options.endpoints,
      }),
      { concurrency: options.concurrency },
    );
    cleanups.push(async () => {
      await queues.close();
      poster.close();
    });
    return { enqueue };
  }

  /** A key whose endpoint is `url`, and `count` deliveries owed to it (a request each), in creation order. */
  async function owed(url: string, count: number) {
    const key = await createApiKey(pool, serverKey, { name: `owed-${randomBytes(3).toString("hex")}` });
    await setWebhook(pool, { allowPrivate: true }, { apiKeyId: key.id, url, enabled: true, headers: {} });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const request = await insertTestRequest(pool, { apiKeyId: key.id });
      ids.push(await insertTestDelivery(pool, { apiKeyId: key.id, requestId: request.id, body: `{"n":${i}}` }));
    }
    return ids;
  }
  const firstAttempt = (deliveryId: string) => ({ deliveryId, generation: 0, attempt: 0 });
  const queueFirstAttempts = async (enqueue: ReturnType<typeof startDeliveryWorker>["enqueue"], ids: string[]) => {
    for (const id of ids) await enqueue(firstAttempt(id), { jobId: webhookJobId(firstAttempt(id)), delayMs: 0 });
  };
  /** A plain receiver answering 200 at once, counting what it got; on `port` when given. */
  async function answeringReceiver(port = 0) {
    const received: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received.push(String(req.headers["x-crossfill-event-id"]));
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
  }

  /** A key with an endpoint at a local receiver answering with `answer(n)` for its n-th request (from 0). */
  async function setup(answer: (n: number) => number) {
    const key = await createApiKey(pool, serverKey, { name: `hooks-${randomBytes(3).toString("hex")}` });
    const received: Received[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const headers = req.headers as Record<string, string>;
        received.push({
          status: JSON.parse(body).data.status ?? JSON.parse(body).event,
          eventId: headers["x-crossfill-event-id"],
          attempt: headers["x-crossfill-delivery-attempt"],
          replay: headers["x-crossfill-replay"],
          valid: verifyWebhookSignature(key.key, headers["x-signature-timestamp"], body, headers["x-signature-sha256"]),
          custom: headers["x-team"],
        });
        res.statusCode = answer(received.length - 1);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    await setWebhook(
      pool,
      { allowPrivate: true },
      {
        apiKeyId: key.id,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
        enabled: true,
        headers: { "X-Team": "ops" },
      },
    );
    const { enqueue } = startDeliveryWorker(key.id, { concurrency: 8 });
    const request = await insertTestRequest(pool, { apiKeyId: key.id });
    const move = (to: RequestStatus) =>
      withTransaction(pool, (client) => transitionRequest(client, { requestId: request.id, to }));
    return { key, received, request, enqueue, move };
  }

  const until = async (check: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("timed out waiting");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("delivers every status change of the key's requests in order, signed, with the event id and custom headers", async () => {
    const { key, received, move, enqueue } = await setup(() => 200);
    const fanout = await startWebhookFanout({ pool, enqueue, logger });
    cleanups.push(() => fanout.close());
    for (const to of ["pending", "submitted", "success"] as const) await move(to);
    await until(() => received.length === 4);
    expect(received.map((r) => r.status)).toEqual(["waiting", "pending", "submitted", "success"]);
    expect(
      received.every((r) => r.valid && r.custom === "ops" && r.attempt === "1" && /^evt_\d+$/.test(r.eventId)),
    ).toBe(true);
    expect(new Set(received.map((r) => r.eventId)).size).toBe(4);
    await until(async () =>
      (await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).every((d) => d.state === "delivered"),
    );
    const log = await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 });
    expect(log.map((d) => [d.attempts, d.lastStatusCode])).toEqual([
      [1, 200],
      [1, 200],
      [1, 200],
      [1, 200],
    ]);
  });

  it("retries a receiver that answers 500 twice, and holds the request's next event until the first is delivered", async () => {
    const { key, received, move, enqueue } = await setup((n) => (n < 2 ? 500 : 200));
    const fanout = await startWebhookFanout({ pool, enqueue, logger });
    cleanups.push(() => fanout.close());
    await move("pending");
    await move("submitted");
    await until(() => received.length === 5);
    expect(received.map((r) => [r.status, r.attempt])).toEqual([
      ["waiting", "1"],
      ["waiting", "2"],
      ["waiting", "3"],
      ["pending", "1"],
      ["submitted", "1"],
    ]);
    expect(received.every((r) => r.valid)).toBe(true);
    await until(async () =>
      (await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).every((d) => d.state === "delivered"),
    );
    const [submitted, pending, waiting] = await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 });
    expect([waiting.attempts, waiting.lastStatusCode, waiting.lastError]).toEqual([3, 200, null]);
    expect([pending.attempts, submitted.attempts]).toEqual([1, 1]);
    // the log keeps every attempt, not only the last
    const [log] = await webhookAttemptsOf(pool, [waiting.id]);
    expect(log.map((a) => [a.generation, a.attempt, a.outcome, a.statusCode, a.error])).toEqual([
      [0, 1, "retrying", 500, "HTTP 500"],
      [0, 2, "retrying", 500, "HTTP 500"],
      [0, 3, "delivered", 200, null],
    ]);
    expect(log.every((a) => typeof a.latencyMs === "number")).toBe(true);
  });

  it("attack: another key's sealed secret copied into a key's row signs nothing; the delivery fails instead", async () => {
    const { key, received, move, enqueue } = await setup(() => 200);
    const attacker = await createApiKey(pool, serverKey, { name: `attacker-${randomBytes(3).toString("hex")}` });
    const moved = await getWebhookSecretCipher(pool, attacker.id);
    await pool.query("UPDATE crossfill.api_keys SET webhook_secret_cipher = $2 WHERE id = $1", [key.id, moved!.cipher]);
    await move("pending");
    const fanout = await startWebhookFanout({ pool, enqueue, logger });
    cleanups.push(() => fanout.close());
    await until(async () => {
      const deliveries = await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 });
      return deliveries.length > 0 && deliveries.every((d) => d.state === "failed");
    });
    expect(received).toEqual([]);
    const first = (await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).at(-1)!;
    expect((await webhookAttemptsOf(pool, [first.id]))[0].map((a) => a.error)).toEqual([
      "the key's sealed signing secret does not open for this key",
    ]);
  });

  it("410 Gone disables the endpoint and drops what it was still owed", async () => {
    const { key, received, move, enqueue } = await setup(() => 410);
    // The three events are in the outbox before the fan-out reads it: all three are owed before the first 410 (an
    // event fanned out after the disable is owed nothing, which made this test depend on timing).
    await move("pending");
    await move("submitted");
    const fanout = await startWebhookFanout({ pool, enqueue, logger });
    cleanups.push(() => fanout.close());
    await until(async () => (await getWebhookEndpoint(pool, key.id))?.enabled === false);
    await until(async () =>
      (await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).every((d) => d.state === "disabled"),
    );
    expect(received.map((r) => r.status)).toEqual(["waiting"]);
    expect((await getWebhookEndpoint(pool, key.id))?.disabledReason).toContain("410");
    const waiting = (await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).at(-1)!;
    expect((await webhookAttemptsOf(pool, [waiting.id]))[0].map((a) => [a.outcome, a.statusCode])).toEqual([
      ["disabled", 410],
    ]);
    // Disabled endpoints get no new deliveries.
    await move("success");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).toHaveLength(3);
  });

  it("a re-run of the fan-out over the same events creates no second delivery, and a replay posts the same event id again", async () => {
    const { key, received, request, move, enqueue } = await setup(() => 200);
    const { events } = await readOutboxAfter(pool, 0n, 10_000);
    const ours = events.filter((event) => event.requestId === request.id);
    const fanout = createWebhookFanout(pool, enqueue);
    await fanout(ours.map((event) => toStatusUpdate(event, Date.now())));
    for (const event of ours) await fanout([toStatusUpdate(event, Date.now())]);
    await until(() => received.length === 1);
    const [delivery] = await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 });
    expect(await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 10 })).toHaveLength(1);
    await until(async () => (await getWebhookDelivery(pool, delivery.id))?.state === "delivered");
    const replayed = await replayWebhookDelivery(pool, delivery.id, key.id);
    expect(replayed).toMatchObject({ state: "pending", attempts: 0, generation: 1 });
    // The gateway has no queue: the worker's sweep starts a replay.
    const sweeping = await startWebhookFanout({ pool, enqueue, logger, sweepEveryMs: 100 });
    cleanups.push(() => sweeping.close());
    await until(() => received.length === 2);
    expect(received[1].eventId).toBe(received[0].eventId);
    // marked, since it may arrive after the request's later events
    expect([received[0].replay, received[1].replay]).toEqual([undefined, "1"]);
    expect(await replayWebhookDelivery(pool, delivery.id, "someone-else")).toBeUndefined();
    // The replay's attempt is recorded after the receiver answered: wait for it, or its record clears the lease below.
    await until(async () => (await getWebhookDelivery(pool, delivery.id))?.state === "delivered");
    // a replay during an attempt in flight leaves that attempt's lease: the replay waits rather than post alongside it
    const leased = new Date(Date.now() + 10_000);
    await pool.query("UPDATE crossfill.webhook_deliveries SET lease_until = $2 WHERE id = $1", [delivery.id, leased]);
    expect(await replayWebhookDelivery(pool, delivery.id, key.id)).toMatchObject({ generation: 2, leaseUntil: leased });
  });

  it("a test event is started by the sweep, signed and logged, and waits for no request's events", async () => {
    const { key, received, enqueue, move } = await setup(() => 200);
    // A request's delivery held by a job in flight: a test event is ordered with nothing, so it does not wait for it.
    const sweeping = await startWebhookFanout({ pool, enqueue, logger, sweepEveryMs: 100 });
    cleanups.push(() => sweeping.close());
    await move("pending");
    await until(() => received.some((post) => post.status === "pending"));
    const [head] = await listWebhookDeliveries(pool, { apiKeyId: key.id, limit: 1 });
    await pool.query(
      "UPDATE crossfill.webhook_deliveries SET state = 'pending', lease_until = now() + interval '1 minute' WHERE id = $1",
      [head.id],
    );
    const test = await sendTestWebhook(pool, key.id);
    expect(test).toMatchObject({ statusEventId: null, requestId: `test_${test.id}`, eventId: `evt_test_${test.id}` });
    await until(() => received.some((post) => post.status === "webhook.test"));
    expect(received.find((post) => post.status === "webhook.test")).toMatchObject({
      eventId: `evt_test_${test.id}`,
      valid: true,
      custom: "ops",
    });
    await until(async () => (await getWebhookDelivery(pool, test.id))?.state === "delivered");
    expect((await webhookAttemptsOf(pool, [test.id]))[0]).toMatchObject([
      { attempt: 1, outcome: "delivered", statusCode: 200 },
    ]);
    // Without an enabled endpoint there is nothing to test.
    await setWebhook(
      pool,
      { allowPrivate: true },
      { apiKeyId: key.id, url: "http://127.0.0.1:9/x", enabled: false, headers: {} },
    );
    await expect(sendTestWebhook(pool, key.id)).rejects.toThrow(/no enabled webhook endpoint/);
  });
  it("a receiver that accepts the connection and never answers holds a few slots; another's deliveries arrive at once", async () => {
    // Accepts TCP and hangs: every attempt to it takes the whole attempt timeout (here 5 s).
    const sockets = new Set<net.Socket>();
    let mostAtOnce = 0;
    const hanging = net.createServer((socket) => {
      sockets.add(socket);
      mostAtOnce = Math.max(mostAtOnce, sockets.size);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const fast = await answeringReceiver();
    const slowIds = await owed(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`, 40);
    const fastIds = await owed(fast.url, 10);
    // The production worker's 32 slots; the slow receiver's deliveries are queued first.
    const { enqueue } = startDeliveryWorker("slow-and-fast", { concurrency: 32, timeoutMs: 5_000 });
    // Registered after the worker, so it runs first: the hanging attempts end, and the worker can close.
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    });
    await queueFirstAttempts(enqueue, slowIds);
    await until(() => sockets.size > 0);
    const started = Date.now();
    await queueFirstAttempts(enqueue, fastIds);
    await until(() => fast.received.length === fastIds.length, 3_000);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The slow one is attempted, at most WEBHOOK_CONCURRENCY_PER_ENDPOINT (4) at once; its waiting deliveries spent nothing.
    expect(mostAtOnce).toBeGreaterThan(0);
    expect(mostAtOnce).toBeLessThanOrEqual(4);
    const { rows } = await pool.query<{ state: string; attempts: number }>(
      "SELECT state, attempts FROM crossfill.webhook_deliveries WHERE id = ANY($1::bigint[])",
      [slowIds],
    );
    expect(rows.every((row) => row.state === "pending" && row.attempts === 0)).toBe(true);
  }, 30_000);

  it("a receiver that refuses connections trips its breaker: its deliveries wait unspent and arrive once it is back", async () => {
    const port = await freePort();
    const ids = await owed(`http://127.0.0.1:${port}/hook`, 5);
    const { enqueue } = startDeliveryWorker("refusing", {
      concurrency: 8,
      endpoints: { concurrency: 4, breakerFailures: 3, breakerCooldownMs: 1_000 },
    });
    const started = Date.now();
    await queueFirstAttempts(enqueue, ids);
    const attempts = async () =>
      (
        await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM crossfill.webhook_attempts WHERE delivery_id = ANY($1::bigint[])",
          [ids],
        )
      ).rows[0].n;
    await until(async () => (await attempts()) >= 3);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Three failures open it (four if the endpoint's four slots were all in flight), then one probe a cool-down
    // since: a loaded machine only stretches the time (without the breaker: ~7 retries each at this 20 ms base).
    const probes = Math.ceil((Date.now() - started) / 1_000);
    expect(await attempts()).toBeLessThanOrEqual(4 + probes);
    const waiting = await pool.query<{ state: string }>(
      "SELECT state FROM crossfill.webhook_deliveries WHERE id = ANY($1::bigint[])",
      [ids],
    );
    expect(waiting.rows.map((row) => row.state)).toEqual(ids.map(() => "pending"));
    // Back: the next probe gets through, closes the breaker, and every delivery arrives.
    const back = await answeringReceiver(port);
    await until(() => back.received.length === ids.length, 10_000);
    await until(async () =>
      (
        await pool.query<{ state: string }>(
          "SELECT state FROM crossfill.webhook_deliveries WHERE id = ANY($1::bigint[])",
          [ids],
        )
      ).rows.every((row) => row.state === "delivered"),
    );
  }, 30_000);
});
