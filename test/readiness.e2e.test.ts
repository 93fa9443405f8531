import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portRunBelowEphemeralRange } from "./support/portRunBelowEphemeralRange.js";
import { type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { type RoleProcess, startRoleProcess } from "./support/startRoleProcess.js";
import { TEST_PRICES_ENV } from "./support/startTestStack.js";
import { postBridgeQuote } from "./support/postQuote.js";
import { type TcpProxy, startTcpProxy } from "./support/startTcpProxy.js";
import { createTestDatabase } from "./support/testDatabase.js";
import { solverKeyEnv } from "./support/solverKeyEnv.js";

type ReadyBody = { status: string; ready: boolean; dependencies: Record<string, { ok: boolean; error?: string }> };

async function readyz(url: string): Promise<{ status: number; body: ReadyBody }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as ReadyBody };
}

/** Polls /readyz until it answers `status` (readiness is cached for a second, and a pool reconnects on its own). */
async function readyzUntil(url: string, status: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await readyz(url);
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The value of one sample of a Prometheus text page (labels in the page's order), undefined when the page lacks it. */
async function scrape(url: string): Promise<(sample: string) => number | undefined> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return (sample) => {
    const line = text.split("\n").find((candidate) => candidate.startsWith(`${sample} `));
    return line ? Number(line.slice(sample.length + 1)) : undefined;
  };
}

/** `crossfill api` and `crossfill worker` as an operator runs them, their Postgres behind a proxy a test can cut. */
describe("/healthz, /readyz and /metrics of the gateway and the worker", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let devnet: DevnetChains;
  let proxy: TcpProxy;
  const roles: RoleProcess[] = [];
  let apiUrl: string;
  let workerUrl: string;

  beforeAll(async () => {
    [db, devnet] = await Promise.all([
      createTestDatabase(),
      startDevnetChains({ chainIds: [31338, 31339], blockTime: 0 }),
    ]);
    const target = new URL(db.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const proxied = new URL(db.url);
    proxied.host = proxy.address;
    const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-ready-")), "chains.json");
    writeFileSync(chainsFile, JSON.stringify({ chains: devnet.chains }));
    const [apiPort, healthPort] = [await portRunBelowEphemeralRange(), await portRunBelowEphemeralRange()];
    apiUrl = `http://127.0.0.1:${apiPort}`;
    workerUrl = `http://127.0.0.1:${healthPort}`;
    const env = {
      DATABASE_URL: proxied.toString(),
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      QUEUE_PREFIX: `ready-${db.name}`,
      CROSSFILL_CHAINS_FILE: chainsFile,
      PRICES: TEST_PRICES_ENV,
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      API_WORKERS: "1",
      LOG_LEVEL: "info",
    };
    roles.push(
      await startRoleProcess(
        ["api"],
        { ...env, ...solverKeyEnv("api", devnet.solver.privateKey), PORT: String(apiPort) },
        "api listening",
      ),
    );
    roles.push(
      await startRoleProcess(
        ["worker"],
        { ...env, ...solverKeyEnv("worker", devnet.solver.privateKey), HEALTH_PORT: String(healthPort) },
        "health endpoints listening",
      ),
    );
  }, 180_000);
  afterAll(async () => {
    await Promise.all(roles.map((role) => role.stop()));
    await proxy?.close();
    await devnet?.stop();
    await db?.drop();
  });

  it("answers /healthz and a ready /readyz naming Postgres, Redis and each chain's node", async () => {
    for (const url of [apiUrl, workerUrl]) {
      const health = await fetch(`${url}/healthz`);
      expect([url, health.status, await health.json()]).toEqual([url, 200, { status: "ok" }]);
      const { status, body } = await readyzUntil(url, 200);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        status: "ready",
        dependencies: {
          postgres: { ok: true },
          redis: { ok: true },
          "chain 31338": { ok: true },
          "chain 31339": { ok: true },
        },
      });
    }
  });

  it("goes 503 naming Postgres while it cannot be reached, and back to 200 when it returns", async () => {
    proxy.cut();
    for (const url of [apiUrl, workerUrl]) {
      const { status, body } = await readyzUntil(url, 503);
      expect([url, status]).toEqual([url, 503]);
      expect(body.status).toBe("not ready");
      expect(body.dependencies.postgres!.ok).toBe(false);
      expect(body.dependencies["chain 31338"]!.ok).toBe(true);
      // still alive: a load balancer takes it out of rotation, nothing restarts it
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }
    proxy.restore();
    for (const url of [apiUrl, workerUrl]) expect((await readyzUntil(url, 200)).status).toBe(200);
  });

  it("exports the quotes and requests a gateway served, and the worker's queues and Postgres pool", async () => {
    const quoted = 'crossfill_quotes_total{endpoint="/quote/v2",outcome="quoted",errorCode="",role="api"}';
    const refused =
      'crossfill_quotes_total{endpoint="/quote/v2",outcome="refused",errorCode="INVALID_INPUT",role="api"}';
    const served =
      'crossfill_http_request_duration_seconds_count{role="api",route="/quote/v2",method="POST",status="200"}';
    const before = await scrape(apiUrl);
    const chains = { origin: { id: 31338 }, destination: { id: 31339 } };
    expect((await postBridgeQuote(apiUrl, devnet.accounts[1]!, chains, 10n ** 16n)).status).toBe(200);
    expect((await postBridgeQuote(apiUrl, devnet.accounts[1]!, chains, 0n)).status).toBe(400);
    const after = await scrape(apiUrl);
    expect(after(quoted)! - (before(quoted) ?? 0)).toBe(1);
    expect(after(refused)! - (before(refused) ?? 0)).toBe(1);
    expect(after(served)! - (before(served) ?? 0)).toBe(1);
    expect(after('crossfill_pg_pool_connections{role="api"}')).toBeGreaterThan(0);

    const worker = await scrape(workerUrl);
    expect(worker('crossfill_queue_jobs{queue="crossfill-fill",state="failed",role="worker"}')).toBe(0);
    expect(worker('crossfill_pg_pool_connections{role="worker"}')).toBeGreaterThan(0);
    expect(worker('crossfill_process_resident_memory_bytes{role="worker"}')).toBeGreaterThan(0);
  });

  it("serves nothing but the health endpoints and metrics on the worker's port", async () => {
    const other = await fetch(`${workerUrl}/quote`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
