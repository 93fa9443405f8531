import { TEST_RATE_LIMITS } from "../test/support/testRateLimits.js";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../devnet/freePort.js";
import { TEST_PRICES_ENV, type TestStack } from "../test/support/startTestStack.js";
import { type RoleProcess, startRoleProcess } from "../test/support/startRoleProcess.js";
import { solverKeyEnv } from "../test/support/solverKeyEnv.js";

function childPids(parent: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        // tsx may keep an esbuild child beside the workers
        const worker = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes("api");
        return worker && Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * `crossfill api --workers N` over a test stack's database and chains, as an operator runs it (own processes, one
 * port), for benchmarks of the API on every core. Same prices and fees as the stack's in-process API.
 */
export async function startApiCluster(
  stack: TestStack,
  workers: number,
): Promise<{ url: string; role: RoleProcess; processes: Record<string, number> }> {
  const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-bench-")), "chains.json");
  writeFileSync(chainsFile, JSON.stringify({ chains: stack.devnet.chains }));
  const port = await freePort();
  const role = await startRoleProcess(
    ["api", "--workers", String(workers)],
    {
      DATABASE_URL: (stack.pool.options as { connectionString: string }).connectionString,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      CROSSFILL_CHAINS_FILE: chainsFile,
      ...solverKeyEnv("api", stack.devnet.solver.privateKey),
      // `crossfill api` and `worker` start only with explicit prices.
      PRICES: TEST_PRICES_ENV,
      API_KEY_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      PORT: String(port),
      LOG_LEVEL: "info",
      // As the in-process API of the stack: quotes not rate limited (the limit's cost has its own rounds).
      RATE_LIMITS: TEST_RATE_LIMITS,
    },
    workers > 1 ? "api cluster listening" : "api listening",
    120_000,
  );
  // Named for the CPU and memory tables: the primary and each worker (its children).
  const processes: Record<string, number> = { "crossfill api (primary)": role.pid };
  childPids(role.pid).forEach((pid, n) => (processes[`crossfill api worker ${n + 1}`] = pid));
  return { url: `http://127.0.0.1:${port}`, role, processes };
}
