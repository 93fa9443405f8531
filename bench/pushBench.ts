/**
 * Push fan-out: `npx tsx bench/pushBench.ts [--subscribers=10000] [--every=10] [--duration=10000]`.
 * One gateway (the GraphQL server and the status fan-out of `startApi`) with N graphql-ws subscribers, each on
 * its own request, in a separate process; a status update every `every` ms for a random subscribed request,
 * published through Redis pub/sub (REDIS_URL, default local) as the notifier does. Reports delivery latency
 * (publish → subscriber, including the re-read of the request) and the gateway's RSS.
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

const flag = (name: string, fallback: number) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const subscribers = flag("subscribers", 10_000);
const everyMs = flag("every", 10);
const durationMs = flag("duration", 10_000);
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const nearestRank = (sorted: number[], p: number) => sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];

const db = await createTestDatabase("crossfill_bench");
const pool = new pg.Pool({ connectionString: db.url, max: 4 });
const prefix = `bench-${db.name}`;
const gatewayBus = createStatusBus({ redisUrl, prefix });
const notifierBus = createStatusBus({ redisUrl, prefix });
const fanout = createStatusFanout(gatewayBus);
const graphql = createTestGraphqlServer({ db: pool, statusUpdates: fanout });
const server = createServer();
try {
  await migrate(pool);
  // N waiting requests in one statement (ids are 32-byte hex like real ones)
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO crossfill.requests (id, order_id, status, request_type, trade_type, user_address, recipient, origin_chain_id, destination_chain_id,
       origin_currency, destination_currency, amount_in, amount_out, minimum_amount_out, slippage_bps, deadline, order_data, quote)
     SELECT '0x' || md5('r' || i) || md5('s' || i), '0x' || md5('o' || i) || md5('p' || i), 'waiting', 'Bridge', 'EXACT_INPUT',
            '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', 31338, 31339,
            '0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000000', 1000, 990, 990, 0,
            now() + interval '1 hour', '{}', '{}'
       FROM generate_series(1, $1) i RETURNING id`,
    [subscribers],
  );
  const ids = rows.map((row) => row.id);
  await gatewayBus.ready();
  server.on("upgrade", routeUpgrades({ "/graphql": graphql.handleUpgrade }));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

  const child = spawn(process.execPath, ["--import", "tsx", new URL("./pushClients.ts", import.meta.url).pathname, url], { stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stdin.end(JSON.stringify(ids));
  const connectStarted = Date.now();
  while (!output.includes("\n")) await new Promise((resolve) => setTimeout(resolve, 100));
  const { ready } = JSON.parse(output.split("\n")[0]);
  console.error(`${ready} subscribers connected in ${((Date.now() - connectStarted) / 1000).toFixed(1)} s`);
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  let published = 0;
  let eventId = 0;
  let peakRss = process.memoryUsage().rss;
  const until = Date.now() + durationMs;
  while (Date.now() < until) {
    const requestId = ids[Math.floor(Math.random() * ids.length)];
    const update: StatusUpdate = {
      eventId: `bench-${++eventId}`,
      requestId,
      wallets: [],
      chainIds: [31338, 31339],
      apiKeyId: null,
      body: {
        event: "request.status.updated",
        timestamp: Date.now(),
        data: {
          status: "pending", inTxHashes: [], txHashes: [], updatedAt: Date.now(), originChainId: 31338, destinationChainId: 31339,
          depositAddress: null, requestId, referrer: null, details: null, failReason: "N/A", refundFailReason: "N/A",
        },
      },
    };
    await notifierBus.publish(update);
    published++;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  output = "";
  child.kill("SIGTERM");
  await once(child, "exit");
  const result = JSON.parse(output.trim().split("\n").at(-1)!);
  const sorted = (result.latencies as number[]).sort((a, b) => a - b);
  const summary = {
    subscribers: result.connected,
    published,
    delivered: sorted.length,
    latencyMs: { p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), p99: nearestRank(sorted, 99), max: sorted.at(-1) },
    gatewayPeakRssMb: Math.round(peakRss / 1024 / 1024),
  };
  console.log(JSON.stringify(summary, null, 2));
} finally {
  await graphql.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fanout.close();
  await Promise.all([gatewayBus.close(), notifierBus.close()]);
  await pool.end();
  await db.drop();
}
