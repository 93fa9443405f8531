import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portRunBelowEphemeralRange } from "./support/portRunBelowEphemeralRange.js";
import { type RoleProcess, startRoleProcess } from "./support/startRoleProcess.js";
import { TEST_PRICES_ENV } from "./support/startTestStack.js";
import { createTestDatabase } from "./support/testDatabase.js";
import { solverKeyEnv } from "./support/solverKeyEnv.js";

const SOLVER_KEY = `0x${"11".repeat(32)}`;

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Runs `crossfill <args>` to its exit: its code and everything it wrote. */
function runRole(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "apps/cli.ts", ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    // Generous: on a loaded machine tsx alone takes tens of seconds to load the CLI.
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** `crossfill api` and `worker` quote and refund real money: they refuse the devnet's fixed prices. */
describe("static prices outside the devnet", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let env: Record<string, string>;
  const started: RoleProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase("crossfill_prices");
    const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-prices-")), "chains.json");
    // No node behind it: neither role calls a chain to start.
    const chain = {
      id: 31338,
      name: "chain-a",
      rpcUrl: "http://127.0.0.1:1",
      depository: "0x00000000000000000000000000000000000000d0",
      receiver: "0x00000000000000000000000000000000000000e0",
    };
    writeFileSync(chainsFile, JSON.stringify({ chains: [chain] }));
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      CROSSFILL_CHAINS_FILE: chainsFile,
      API_KEY_ENCRYPTION_KEY: "22".repeat(32),
      QUEUE_PREFIX: `prices-${db.name}`,
      HEALTH_PORT: "0",
      API_WORKERS: "1",
      LOG_LEVEL: "info",
    };
  }, 60_000);
  afterAll(async () => {
    for (const role of started) await role.stop();
    await db?.drop();
  });

  it.each(["api", "worker", "api --workers 2"])(
    "crossfill %s without PRICES exits 1 saying why, before it touches anything",
    async (command) => {
      const args = command.split(" ");
      const { code, output } = await runRole(args, { ...env, ...solverKeyEnv(args[0]!, SOLVER_KEY) });
      expect(code).toBe(1);
      expect(output).toContain(`PRICES is required for crossfill ${command.split(" ")[0]}`);
      expect(output).toMatch(/static/);
      // It stopped before migrating the database.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query("SELECT to_regclass('crossfill.schema_migrations') AS migrations");
      await client.end();
      expect(rows).toEqual([{ migrations: null }]);
    },
    120_000,
  );

  it("starts the api and the worker with PRICES set", async () => {
    const withPrices = { ...env, PRICES: TEST_PRICES_ENV };
    started.push(
      await startRoleProcess(["worker"], { ...withPrices, ...solverKeyEnv("worker", SOLVER_KEY) }, "worker started"),
    );
    started.push(
      await startRoleProcess(
        ["api"],
        { ...withPrices, ...solverKeyEnv("api", SOLVER_KEY), PORT: String(await portRunBelowEphemeralRange()) },
        "api listening",
      ),
    );
  }, 120_000);
});
