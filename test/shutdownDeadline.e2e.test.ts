import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portRunBelowEphemeralRange } from "./support/portRunBelowEphemeralRange.js";
import { type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { type RoleProcess, startRoleProcess } from "./support/startRoleProcess.js";
import { TEST_PRICES_ENV } from "./support/startTestStack.js";
import { type TcpProxy, startTcpProxy } from "./support/startTcpProxy.js";
import { createTestDatabase } from "./support/testDatabase.js";

/**
 * `crossfill worker` as an operator runs it, its Postgres behind a proxy that can hang: a clean stop exits 0, a stop
 * hung on the database exits 1 after SHUTDOWN_TIMEOUT_SECONDS naming what it was closing, and a second signal ends
 * it at once.
 */
describe("stopping a role: the shutdown deadline and the second signal", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let devnet: DevnetChains;
  const proxies: TcpProxy[] = [];
  const roles: RoleProcess[] = [];
  let chainsFile: string;

  beforeAll(async () => {
    [db, devnet] = await Promise.all([
      createTestDatabase(),
      startDevnetChains({ chainIds: [31338, 31339], blockTime: 0 }),
    ]);
    chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-stop-")), "chains.json");
    writeFileSync(chainsFile, JSON.stringify({ chains: devnet.chains }));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(roles.map((role) => role.kill()));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await devnet?.stop();
    await db?.drop();
  });

  /** A worker on its own proxy to Postgres (so stalling it hangs this worker only). */
  async function startWorkerRole(): Promise<{ role: RoleProcess; proxy: TcpProxy }> {
    const target = new URL(db.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    proxies.push(proxy);
    const proxied = new URL(db.url);
    proxied.host = proxy.address;
    const role = await startRoleProcess(
      ["worker"],
      {
        DATABASE_URL: proxied.toString(),
        REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
        QUEUE_PREFIX: `stop-${db.name}-${proxies.length}`,
        CROSSFILL_CHAINS_FILE: chainsFile,
        SOLVER_PRIVATE_KEY: devnet.solver.privateKey,
        PRICES: TEST_PRICES_ENV,
        HEALTH_PORT: String(await portRunBelowEphemeralRange()),
        SHUTDOWN_TIMEOUT_SECONDS: "3",
        LOG_LEVEL: "info",
      },
      "health endpoints listening",
    );
    roles.push(role);
    return { role, proxy };
  }

  it("stops cleanly: exit 0, 'Crossfill stopped.' last", async () => {
    const { role } = await startWorkerRole();
    role.signal("SIGTERM");
    expect(await role.exited).toBe(0);
    expect(role.output().trimEnd().split("\n").at(-1)).toBe("Crossfill stopped.");
  }, 60_000);

  it("exits 1 after the deadline naming the step that hung when its database stops answering", async () => {
    const { role, proxy } = await startWorkerRole();
    proxy.stall();
    const stopped = Date.now();
    role.signal("SIGTERM");
    expect(await role.exited).toBe(1);
    const took = Date.now() - stopped;
    expect(took).toBeGreaterThanOrEqual(3_000);
    expect(took).toBeLessThan(10_000);
    expect(role.output()).toMatch(/shutdown did not finish in 3 s \(still closing: [^)]+\): exiting/);
  }, 60_000);

  it("exits at once on a second signal while the shutdown hangs", async () => {
    const { role, proxy } = await startWorkerRole();
    proxy.stall();
    role.signal("SIGINT");
    // The same keypress delivered twice (the terminal and npm) does not count as a second.
    role.signal("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const again = Date.now();
    role.signal("SIGINT");
    expect(await role.exited).toBe(130);
    expect(Date.now() - again).toBeLessThan(1_000);
    expect(role.output()).toMatch(/SIGINT again: exiting now \(still closing: [^)]+\)/);
  }, 60_000);
});
