import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../devnet/freePort.js";
import { type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { type RoleProcess, startRoleProcess } from "./support/startRoleProcess.js";
import { TEST_PRICES_ENV } from "./support/startTestStack.js";
import { type TcpProxy, startTcpProxy } from "./support/startTcpProxy.js";
import { createTestDatabase } from "./support/testDatabase.js";

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

/** `crossfill api` and `crossfill worker` as an operator runs them, their Postgres behind a proxy a test can cut. */
describe("/healthz and /readyz of the gateway and the worker", () => {
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
    const [apiPort, healthPort] = [await freePort(), await freePort()];
    apiUrl = `http://127.0.0.1:${apiPort}`;
    workerUrl = `http://127.0.0.1:${healthPort}`;
    const env = {
      DATABASE_URL: proxied.toString(),
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      QUEUE_PREFIX: `ready-${db.name}`,
      CROSSFILL_CHAINS_FILE: chainsFile,
      SOLVER_PRIVATE_KEY: devnet.solver.privateKey,
      PRICES: TEST_PRICES_ENV,
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      API_WORKERS: "1",
      LOG_LEVEL: "info",
    };
    roles.push(await startRoleProcess(["api"], { ...env, PORT: String(apiPort) }, "api listening"));
    roles.push(
      await startRoleProcess(["worker"], { ...env, HEALTH_PORT: String(healthPort) }, "health endpoints listening"),
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

  it("serves nothing but the health endpoints on the worker's port", async () => {
    const other = await fetch(`${workerUrl}/quote`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
