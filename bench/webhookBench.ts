/**
 * Webhook delivery on real parts: Postgres, BullMQ on Redis (the production default), the worker's fan-out and
 * delivery processor as `crossfill worker` runs them, and a node:http receiver on 127.0.0.1 (in this process:
 * it shares the two cores, so the numbers are a floor).
 *
 * 1. Throughput: `deliveries` requests of one key are created while the fan-out is stopped; it is then started
 *    and the time until the receiver has every event (verified signature) gives deliveries per second.
 * 2. Latency: `latencySamples` status changes, one every 20 ms on an idle pipeline; commit of the change →
 *    first attempt arriving at the receiver.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import pino from "pino";
import { createQueueBackend } from "../jobs/queueBackend.js";
import { QUEUES, WEBHOOK_JOB_OPTIONS, type WebhookJob } from "../jobs/queues.js";
import { createWebhookProcessor } from "../jobs/createWebhookProcessor.js";
import { WEBHOOK_CURSOR, startWebhookFanout } from "../jobs/createWebhookFanout.js";
import { migrate } from "../schema/migrate.js";
import { ensureNotifyCursor } from "../schema/notifyCursor.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createWebhookPoster } from "../src/webhooks/postWebhook.js";
import { setWebhook } from "../src/webhooks/setWebhook.js";
import { verifyWebhookSignature } from "../src/webhooks/signWebhook.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import { cpuBetween, cpuSnapshot } from "./processCpu.js";
import type { Target } from "./target.js";

export type WebhookBenchOptions = { deliveries: number; latencySamples: number; concurrency: number };
export const defaultWebhookBenchOptions: WebhookBenchOptions = {
  deliveries: 10_000,
  latencySamples: 300,
  concurrency: 64,
};

export type WebhookBenchResult = {
  benchmark: "webhook";
  date: string;
  commit: string;
  machine: MachineInfo;
  options: WebhookBenchOptions;
  targets: Target[];
  /** cpuMsByProcess: CPU used during the throughput phase, by process group (this process runs worker, receiver and driver). */
  throughput: {
    deliveries: number;
    seconds: number;
    deliveriesPerSecond: number;
    invalidSignatures: number;
    cpuMsByProcess: Record<string, number>;
  };
  /** Status change committed → first delivery attempt received. */
  firstAttemptMs: Summary;
};

export async function webhookBench(
  options: WebhookBenchOptions,
  log: (line: string) => void,
): Promise<WebhookBenchResult> {
  const started = new Date();
  const machine = machineInfo();
  const db = await createTestDatabase("crossfill_bench_webhooks");
  const pool = new pg.Pool({ connectionString: db.url, max: 20 });
  // Dropping the database at the end ends idle clients.
  pool.on("error", () => undefined);
  const stops: Array<() => Promise<unknown>> = [];
  try {
    await migrate(pool);
    await ensureNotifyCursor(pool, WEBHOOK_CURSOR);
    const serverKey = randomBytes(32);
    const key = await createApiKey(pool, serverKey, { name: "bench" });

    const arrivals = new Map<string, number>();
    let received = 0;
    let invalid = 0;
    let onCount: () => void = () => undefined;
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", () => {
        const at = performance.now();
        const body = Buffer.concat(chunks).toString();
        if (
          !verifyWebhookSignature(
            key.key,
            req.headers["x-signature-timestamp"] as string,
            body,
            req.headers["x-signature-sha256"] as string,
          )
        )
          invalid += 1;
        const data = JSON.parse(body).data as { requestId: string; status: string };
        const id = `${data.requestId}:${data.status}`;
        if (!arrivals.has(id)) arrivals.set(id, at);
        received += 1;
        res.end();
        onCount();
      });
    });
    receiver.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    stops.push(
      () =>
        new Promise((resolve) => {
          receiver.closeAllConnections();
          receiver.close(resolve);
        }),
    );
    await setWebhook(
      pool,
      { allowPrivate: true },
      {
        apiKeyId: key.id,
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
        enabled: true,
        headers: {},
      },
    );

    const logger = pino({ level: "warn" });
    const queues = createQueueBackend({
      databaseUrl: db.url,
      redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      prefix: `bench-${db.name}`,
      onError: (err, source) => logger.warn({ err, source }, "queue connection error"),
    });
    stops.push(() => queues.close());
    const queue = queues.createQueue<WebhookJob>(QUEUES.webhook);
    const enqueue = async (job: WebhookJob, opts: { jobId: string; delayMs: number }) => {
      await queue.add("deliver", job, { ...WEBHOOK_JOB_OPTIONS, jobId: opts.jobId, delay: opts.delayMs });
    };
    const poster = createWebhookPoster({ allowPrivate: true });
    stops.push(async () => poster.close());
    queues.createWorker<WebhookJob>(
      QUEUES.webhook,
      createWebhookProcessor({ pool, serverKey, poster, enqueue, logger }),
      { concurrency: options.concurrency },
    );
    const waitFor = (count: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received} of ${count} webhooks arrived`)), timeoutMs);
        onCount = () => {
          if (received >= count) {
            clearTimeout(timer);
            resolve();
          }
        };
        onCount();
      });

    log(`webhook: creating ${options.deliveries} requests (one waiting event each)`);
    for (let i = 0; i < options.deliveries; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, options.deliveries - i) }, () =>
          insertTestRequest(pool, { apiKeyId: key.id }),
        ),
      );
    }
    log("webhook: fan-out started");
    const cpuBefore = cpuSnapshot();
    const t0 = performance.now();
    const fanout = await startWebhookFanout({ pool, enqueue, logger });
    stops.push(() => fanout.close());
    await waitFor(options.deliveries, 300_000);
    const seconds = (performance.now() - t0) / 1000;
    const cpuMsByProcess = cpuBetween(cpuBefore, cpuSnapshot());
    const deliveriesPerSecond = Math.round(options.deliveries / seconds);
    log(
      `webhook: ${options.deliveries} delivered in ${seconds.toFixed(2)} s (${deliveriesPerSecond}/s); CPU ms ${JSON.stringify(cpuMsByProcess)}`,
    );

    log(`webhook: ${options.latencySamples} status changes, one every 20 ms`);
    const requests = await Promise.all(
      Array.from({ length: options.latencySamples }, () => insertTestRequest(pool, { apiKeyId: key.id })),
    );
    await waitFor(options.deliveries + options.latencySamples, 60_000);
    const committed = new Map<string, number>();
    for (const request of requests) {
      await withTransaction(pool, (client) => transitionRequest(client, { requestId: request.id, to: "pending" }));
      committed.set(`${request.id}:pending`, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await waitFor(options.deliveries + 2 * options.latencySamples, 60_000);
    const firstAttemptMs = summarize([...committed].map(([id, at]) => Math.round((arrivals.get(id) as number) - at)));
    log(`webhook: first attempt p50 ${firstAttemptMs.p50} ms, p99 ${firstAttemptMs.p99} ms`);

    return {
      benchmark: "webhook",
      date: started.toISOString(),
      commit: gitCommit(),
      machine,
      options,
      targets: [
        {
          metric: "throughput to a local receiver",
          target: "≥ 1,000 deliveries/s",
          measured: deliveriesPerSecond,
          met: deliveriesPerSecond >= 1000,
        },
        {
          metric: "status change → first attempt, p99",
          target: "≤ 500 ms",
          measured: firstAttemptMs.p99,
          met: firstAttemptMs.p99 <= 500,
        },
        { metric: "invalid signatures", target: "0", measured: invalid, met: invalid === 0 },
      ],
      throughput: {
        deliveries: options.deliveries,
        seconds: Number(seconds.toFixed(2)),
        deliveriesPerSecond,
        invalidSignatures: invalid,
        cpuMsByProcess,
      },
      firstAttemptMs,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await pool.end();
    await db.drop();
  }
}
