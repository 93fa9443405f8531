import { TEST_RATE_LIMITS } from "./support/testRateLimits.js";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { portRunBelowEphemeralRange } from "./support/portRunBelowEphemeralRange.js";
import { type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import type { StatusUpdate } from "../src/events/statusUpdate.js";
import { openStatusFeed } from "./support/openStatusFeed.js";
import { type RoleProcess, startRoleProcess } from "./support/startRoleProcess.js";
import { TEST_PRICES_ENV } from "./support/startTestStack.js";
import { createTestDatabase } from "./support/testDatabase.js";
import { solverKeyEnv } from "./support/solverKeyEnv.js";

/**
 * The api workers of the primary `pid` (its children running `crossfill api`: tsx may keep an esbuild child too),
 * and each one's CPU ticks so far (utime + stime).
 */
function childrenOf(pid: number): Map<number, number> {
  const children = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const worker = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes("api");
      if (Number(fields[1]) === pid && worker) children.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** One request on a connection of its own, so the cluster's primary hands each to the next worker. */
function request(url: string, method = "GET", body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, headers: { "content-type": "application/json" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** `crossfill api --workers 2` as an operator runs it: one port, two gateway processes behind it. */
describe("crossfill api --workers 2", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let devnet: DevnetChains;
  let api: RoleProcess;
  let url: string;

  beforeAll(async () => {
    [db, devnet] = await Promise.all([
      createTestDatabase(),
      startDevnetChains({ chainIds: [31338, 31339], blockTime: 0 }),
    ]);
    const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-cluster-")), "chains.json");
    writeFileSync(chainsFile, JSON.stringify({ chains: devnet.chains }));
    const port = await portRunBelowEphemeralRange();
    url = `http://127.0.0.1:${port}`;
    api = await startRoleProcess(
      ["api", "--workers", "2"],
      {
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
        // its own rate-limit counters: the burst test counts exactly while other files' roles share this Redis
        QUEUE_PREFIX: `cluster-${db.name}`,
        CROSSFILL_CHAINS_FILE: chainsFile,
        ...solverKeyEnv("api", devnet.solver.privateKey),
        // `crossfill api` and `worker` start only with explicit prices.
        PRICES: TEST_PRICES_ENV,
        API_KEY_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        PORT: String(port),
        LOG_LEVEL: "info",
        API_WORKER_SEMI_SPACE_MB: "48",
        RATE_LIMITS: TEST_RATE_LIMITS,
      },
      "api cluster listening",
      120_000,
    );
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await devnet?.stop();
    await db?.drop();
  });

  it("serves one port from two worker processes, sharing the rate-limit counters", async () => {
    const before = childrenOf(api.pid);
    expect(before.size).toBe(2);
    for (const pid of before.keys())
      expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"), `worker ${pid}`).toContain(
        "--max-semi-space-size=48",
      );
    for (let i = 0; i < 40; i++) expect(await request(`${url}/chains`)).toBe(200);
    // both workers answered some of them
    for (const [pid, ticks] of childrenOf(api.pid)) expect(ticks, `worker ${pid}`).toBeGreaterThan(before.get(pid)!);

    // POST /price allows 10 per second to an address without a key, counted before the body is read: a burst over
    // both workers inside one window lets 10 through in all, not 10 per worker.
    const bursts: number[] = [];
    for (let attempt = 0; attempt < 5 && bursts.length < 2; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1_100 - (Date.now() % 1_000)));
      const started = Date.now();
      const statuses = await Promise.all(Array.from({ length: 30 }, () => request(`${url}/price`, "POST", "{}")));
      const window = Math.floor(started / 1_000);
      if (Math.floor(Date.now() / 1_000) !== window) continue; // the burst straddled two windows: try again
      bursts.push(statuses.filter((status) => status !== 429).length);
    }
    expect(bursts.length).toBeGreaterThan(0);
    for (const allowed of bursts) expect(allowed).toBe(10);
  });

  it("delivers a status update to /ws and graphql-ws clients of every worker", async () => {
    const requestId = `0x${randomBytes(32).toString("hex")}`;
    // Six connections of each kind: the primary deals them out to both workers in turn.
    const viaFeed = new Set<number>();
    const feeds = await Promise.all(
      Array.from({ length: 6 }, (_, n) => openStatusFeed(url, { id: requestId }, () => viaFeed.add(n))),
    );
    const viaGraphql = new Set<number>();
    const errors: unknown[] = [];
    const clients = Array.from({ length: 6 }, (_, n) => {
      const client = createClient({
        url: `${url.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      client.subscribe(
        {
          query: "subscription ($id: String!) { requestUpdated(id: $id) { eventId status } }",
          variables: { id: requestId },
        },
        {
          next: ({ data, errors: failed }) => (failed ? errors.push(failed) : data && viaGraphql.add(n)),
          error: (error) => errors.push(error),
          complete: () => undefined,
        },
      );
      return client;
    });
    // Routed by a random request id only: no other subscriber of the shared channel has it. graphql-ws does not
    // confirm a subscription, so the update goes out again (a new event id each time) until every client has one.
    const bus = createStatusBus({ redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" });
    const deadline = Date.now() + 15_000;
    for (let eventId = 1; (viaFeed.size < 6 || viaGraphql.size < 6) && Date.now() < deadline; eventId++) {
      await bus.publish({
        eventId: String(eventId),
        requestId,
        wallets: [],
        chainIds: [],
        apiKeyId: null,
        apiKeyIntegrator: null,
        body: { event: "request.status.updated", timestamp: Date.now(), data: { status: "pending", requestId } },
      } as unknown as StatusUpdate);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(errors).toEqual([]);
    expect([...viaFeed].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...viaGraphql].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const feed of feeds) feed.close();
    await Promise.all(clients.map((client) => client.dispose()));
    await bus.close();
  });

  it("stops every worker when the primary gets SIGTERM", async () => {
    const workers = [...childrenOf(api.pid).keys()];
    expect(workers).toHaveLength(2);
    process.kill(api.pid, "SIGTERM");
    const deadline = Date.now() + 20_000;
    while ([api.pid, ...workers].some(alive) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect([api.pid, ...workers].filter(alive)).toEqual([]);
    expect(api.output()).toMatch(/SIGTERM: stopping/);
  });
});
