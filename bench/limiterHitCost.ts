/**
 * The quote rate limit's check alone, without quotes: CPU per check of the gateway's thread, of the database's
 * Postgres backends and of the Redis server, at a quote-like rate, from one client address and from many. Set against
 * the CPU a quote costs (the quote benchmark's floor, CPU µs a quote) it says what the check costs on a machine whose
 * cores are busy, without the quote benchmark's noise.
 *
 * `--profile` adds a pass per case under the V8 profiler (not measured): where the gateway thread's time goes.
 *
 * `--label` names the code measured in the result (to tell apart runs of a limiter swapped in for comparison).
 *
 *   npx tsx bench/limiterHitCost.ts [--rate=1500] [--seconds=5] [--addresses=1,5000] [--profile] [--label=…]
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { hitRateLimits } from "../src/gateway/http/hitRateLimits.js";
import { policyFor } from "../src/gateway/http/policyFor.js";
import {
  type RateLimiter,
  createPostgresRateLimiter,
  createRedisRateLimiter,
} from "../src/gateway/http/rateLimiter.js";
import { DEFAULT_ROUTE_LIMITS } from "../src/gateway/http/routeLimits.js";
import { migrate } from "../schema/migrate.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { gitCommit, machineInfo } from "./machineInfo.js";
import { type CpuProfileSummary, profileCpu } from "./profileCpu.js";
import { type RoundCpuMs, measureRoundCpu } from "./quoteLimiterRounds.js";
import { writeResult } from "./writeResult.js";

const TICK_MS = 5;
// The quote route's limit, counted but never refused (as in the quote benchmark's limiter rounds).
const LIMIT = { ...DEFAULT_ROUTE_LIMITS.quote, anonymous: 100_000_000 };

/** `rate` checks a second for `seconds`, in bursts every TICK_MS, each from the next of `addresses` addresses. */
async function drive(limiter: RateLimiter | undefined, rate: number, seconds: number, addresses: number) {
  const deps = limiter && { limiter, now: () => new Date(), trustForwardedFor: true };
  const perTick = Math.round((rate * TICK_MS) / 1000);
  const end = Date.now() + seconds * 1000;
  let n = 0;
  let checks = 0;
  while (Date.now() < end) {
    if (deps) {
      const burst: Promise<unknown>[] = [];
      for (let i = 0; i < perTick; i++) {
        const address = `10.0.${Math.floor((n % addresses) / 256)}.${n % 256}`;
        n += 1;
        burst.push(hitRateLimits(deps, [policyFor(LIMIT, undefined, () => address)]));
      }
      await Promise.all(burst);
      checks += perTick;
    }
    await sleep(TICK_MS);
  }
  return checks;
}

async function main() {
  const flags = new Map(
    process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=", 2) as [string, string | undefined]),
  );
  const rate = Number(flags.get("rate") ?? 1500);
  const seconds = Number(flags.get("seconds") ?? 5);
  const addressCounts = (flags.get("addresses") ?? "1,5000").split(",").map(Number);
  const date = new Date();
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  try {
    await migrate(pool);
    const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
    const cases: {
      store: string;
      addresses: number;
      checks: number;
      cpuMs: RoundCpuMs;
      cpuUsPerCheck: number;
      withoutChecksCpuMs: RoundCpuMs;
      profile?: Pick<CpuProfileSummary, "busyMs" | "byOrigin" | "topFunctions">;
    }[] = [];
    for (const addresses of addressCounts) {
      for (const store of ["redis", "postgres"] as const) {
        const limiter =
          store === "redis"
            ? createRedisRateLimiter(redisUrl, `bench-hits-${randomBytes(4).toString("hex")}`)
            : createPostgresRateLimiter(pool);
        try {
          await drive(limiter, rate, 1, addresses); // warm-up: JIT, connections, the first flush
          // The same loop without checks: its timers are not the check's cost.
          const [, withoutChecksCpuMs] = await measureRoundCpu(pool, () => drive(undefined, rate, seconds, addresses));
          const [checks, cpuMs] = await measureRoundCpu(pool, () => drive(limiter, rate, seconds, addresses));
          const used = (c: RoundCpuMs) => c.gateway + c.postgres + c.redis;
          const cpuUsPerCheck = Math.round(((used(cpuMs) - used(withoutChecksCpuMs)) * 1000 * 10) / checks) / 10;
          let profile: (typeof cases)[number]["profile"];
          if (flags.has("profile")) {
            const { busyMs, byOrigin, topFunctions } = (
              await profileCpu(() => drive(limiter, rate, seconds, addresses), { top: 12 })
            ).profile;
            profile = { busyMs, byOrigin, topFunctions };
            console.log(`  profiled: ${byOrigin.map((o) => `${o.origin} ${o.percentOfBusy} %`).join(", ")}`);
          }
          cases.push({ store, addresses, checks, cpuMs, cpuUsPerCheck, withoutChecksCpuMs, profile });
          console.log(
            `${store}, ${addresses} address(es): ${checks} checks, CPU ms gateway ${cpuMs.gateway.toFixed(0)} / Postgres ${cpuMs.postgres} / Redis ${cpuMs.redis} (without checks ${used(withoutChecksCpuMs).toFixed(0)}): ${cpuUsPerCheck} µs a check`,
          );
        } finally {
          await limiter.close();
        }
      }
    }
    const file = writeResult("limiterHits", date, {
      benchmark: "limiterHits",
      date: date.toISOString(),
      commit: gitCommit(),
      machine: machineInfo(),
      setup: {
        rate,
        seconds,
        tickMs: TICK_MS,
        label: flags.get("label"),
        note: "hitRateLimits with the quote route's policy, real clock",
      },
      cases,
    });
    console.log(`wrote ${file}`);
  } finally {
    await pool.end();
    await db.drop();
  }
}

await main();
