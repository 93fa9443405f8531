/**
 * Push fan-out (`npm run bench -- push`): one gateway (the GraphQL server and the status fan-out of `startApi`)
 * with N graphql-ws subscribers, each on its own request, in a separate process (bench/pushClients.ts); a status
 * update every `everyMs` for a random subscribed request, at a fixed rate, published through Redis pub/sub
 * (local Redis) as the notifier does. Measures delivery latency (publish → subscriber, including
 * the re-read of the request through the loaders) and this process's peak RSS: the gateway, plus the publisher.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { migrate } from "../schema/migrate.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { createStatusFanout } from "../src/events/createStatusFanout.js";
import type { StatusUpdate } from "../src/events/statusUpdate.js";
import { routeUpgrades } from "../src/gateway/ws/routeUpgrades.js";
import { createTestGraphqlServer } from "../test/support/createTestGraphqlServer.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import type { Target } from "./target.js";

export type PushBenchOptions = { subscribers: number; everyMs: number; durationMs: number; redisUrl: string };
export const defaultPushBenchOptions: PushBenchOptions = {
  subscribers: 10_000,
  everyMs: 10,
  durationMs: 10_000,
  redisUrl: "redis://127.0.0.1:6379",
};

export type PushBenchResult = {
  benchmark: "push";
  date: string;
  commit: string;
  machine: MachineInfo;
  options: Omit<PushBenchOptions, "redisUrl">;
  targets: Target[];
  connected: number;
  connectSeconds: number;
  published: number;
  delivered: number;
  /** Publish → the subscriber's `next`, ms. */
  deliveryMs: Summary;
  gatewayPeakRssMb: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function pushBench(options: PushBenchOptions, log: (line: string) => void): Promise<PushBenchResult> {
  const started = new Date();
  const machine = machineInfo();
  const db = await createTestDatabase("crossfill_bench_push");
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  const prefix = `bench-${db.name}`;
  const gatewayBus = createStatusBus({ redisUrl: options.redisUrl, prefix });
  const notifierBus = createStatusBus({ redisUrl: options.redisUrl, prefix });
  const fanout = createStatusFanout(gatewayBus);
  const graphql = createTestGraphqlServer({ db: pool, statusUpdates: fanout });
  const server = createServer();
  try {
    await migrate(pool);
    const ids = await insertWaitingRequests(pool, options.subscribers);
    await gatewayBus.ready();
    server.on("upgrade", routeUpgrades({ "/graphql": graphql.handleUpgrade }));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

    const child = spawn(
      process.execPath,
      ["--import", "tsx", new URL("./pushClients.ts", import.meta.url).pathname, url],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stdin.end(JSON.stringify(ids));
    const connectStarted = Date.now();
    while (!output.includes("\n")) await sleep(100);
    const connectSeconds = Number(((Date.now() - connectStarted) / 1000).toFixed(1));
    log(`push: ${JSON.parse(output.split("\n")[0]).ready} subscribers connected in ${connectSeconds} s`);
    await sleep(1_000);

    let published = 0;
    let peakRss = process.memoryUsage().rss;
    const publishStarted = Date.now();
    while (Date.now() - publishStarted < options.durationMs) {
      await notifierBus.publish(statusUpdate(ids[Math.floor(Math.random() * ids.length)], `bench-${published + 1}`));
      published += 1;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      // A fixed rate: the next update is due `everyMs` after the previous one was due, not after it was sent.
      await sleep(Math.max(0, publishStarted + published * options.everyMs - Date.now()));
    }
    await sleep(1_000);
    output = "";
    child.kill("SIGTERM");
    await once(child, "exit");
    const report = JSON.parse(output.trim().split("\n").at(-1)!) as { connected: number; latencies: number[] };
    const deliveryMs = summarize(report.latencies);
    const gatewayPeakRssMb = Math.round(peakRss / 2 ** 20);
    log(
      `push: ${report.latencies.length} of ${published} delivered, p99 ${deliveryMs.p99} ms, peak RSS ${gatewayPeakRssMb} MB`,
    );
    return {
      benchmark: "push",
      date: started.toISOString(),
      commit: gitCommit(),
      machine,
      options: { subscribers: options.subscribers, everyMs: options.everyMs, durationMs: options.durationMs },
      targets: [
        {
          metric: `fan-out to ${options.subscribers} graphql-ws subscribers, p99`,
          target: "≤ 200 ms",
          measured: deliveryMs.p99,
          met: deliveryMs.p99 <= 200,
        },
        { metric: "gateway peak RSS", target: "≤ 600 MB", measured: gatewayPeakRssMb, met: gatewayPeakRssMb <= 600 },
        {
          metric: "subscribers connected",
          target: String(options.subscribers),
          measured: report.connected,
          met: report.connected === options.subscribers,
        },
        {
          metric: "updates delivered",
          target: `all ${published}`,
          measured: report.latencies.length,
          met: report.latencies.length === published,
        },
      ],
      connected: report.connected,
      connectSeconds,
      published,
      delivered: report.latencies.length,
      deliveryMs,
      gatewayPeakRssMb,
    };
  } finally {
    await graphql.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fanout.close();
    await Promise.all([gatewayBus.close(), notifierBus.close()]);
    await pool.end();
    await db.drop();
  }
}

/** N waiting requests in one statement (ids are 32-byte hex like real ones). */
async function insertWaitingRequests(pool: pg.Pool, count: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO crossfill.requests (id, order_id, status, request_type, trade_type, user_address, recipient, origin_chain_id, destination_chain_id,
       origin_currency, destination_currency, amount_in, amount_out, minimum_amount_out, slippage_bps, deadline, order_data, quote)
     SELECT '0x' || md5('r' || i) || md5('s' || i), '0x' || md5('o' || i) || md5('p' || i), 'waiting', 'Bridge', 'EXACT_INPUT',
            '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 31338, 31339,
            '0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000000', 1000, 990, 990, 0,
            now() + interval '1 hour', '{}', '{}'
       FROM generate_series(1, $1) i RETURNING id`,
    [count],
  );
  return rows.map((row) => row.id);
}

/** What the notifier publishes for a status change; `updatedAt` is the publish time the subscriber measures from. */
function statusUpdate(requestId: string, eventId: string): StatusUpdate {
  const now = Date.now();
  return {
    eventId,
    requestId,
    wallets: [],
    chainIds: [31338, 31339],
    apiKeyId: null,
    apiKeyIntegrator: null,
    body: {
      event: "request.status.updated",
      timestamp: now,
      data: {
        status: "pending",
        inTxHashes: [],
        txHashes: [],
        updatedAt: now,
        originChainId: 31338,
        destinationChainId: 31339,
        depositAddress: null,
        requestId,
        referrer: null,
        details: null,
        failReason: "N/A",
        refundFailReason: "N/A",
      },
    },
  };
}
