import { randomBytes } from "node:crypto";
import type pg from "pg";
import { type CpuSnapshot, cpuSnapshot } from "./processCpu.js";
import {
  type RateLimiter,
  createPostgresRateLimiter,
  createRedisRateLimiter,
} from "../src/gateway/http/rateLimiter.js";
import type { TestStack } from "../test/support/startTestStack.js";
import { testRouteLimits } from "../test/support/testRateLimits.js";
import { median } from "./percentiles.js";
import { stackRest, startModeGateways } from "./startStackApi.js";
import type { Target } from "./target.js";

/** The gateways the rounds alternate between: the same quote engine and database, only the quote limit differs. */
export const LIMITER_MODES = ["off", "redis", "postgres"] as const;
export type LimiterMode = (typeof LIMITER_MODES)[number];

/** CPU ms one round cost: the gateways' process, the bench database's Postgres backends, the Redis server. */
export type RoundCpuMs = { gateway: number; postgres: number; redis: number };
export type LimiterRound = {
  round: number;
  mode: LimiterMode;
  quotesPerSecond: number;
  errors: number;
  completed: number;
  cpuMs: RoundCpuMs;
};
type CpuPerQuote = RoundCpuMs & { total: number };
export type LimiterOverhead = {
  concurrency: number;
  /** 0: all load from one client address; N: spread over N addresses. */
  addresses: number;
  roundMs: number;
  rounds: LimiterRound[];
  /**
   * Per mode: its rounds' quotes/s and their median; `costPercent` compares that median with the median of the rounds
   * without the limit; `pairedCostPercent` is the median over rounds of each round's own comparison (the load of the
   * machine's other users drifts over minutes, less within one round), which the target reads.
   */
  byMode: Record<
    LimiterMode,
    {
      medianQuotesPerSecond: number;
      costPercent: number;
      pairedCostPercent: number;
      roundsQuotesPerSecond: number[];
      /** Median over the rounds of the CPU µs per quote, per process group and in all. */
      medianCpuUsPerQuote: CpuPerQuote;
      /**
       * Extra CPU per quote against the floor, % of the floor's: median over rounds of each round's own comparison
       * (what the check costs in throughput on a machine whose cores are all busy, far less sensitive to other load).
       */
      pairedCpuCostPercent: number;
    }
  >;
};

// Counted on every quote but never refused: the cost of the check, not of 429s.
const COUNTED_NEVER_REFUSED = "quote=100000000/100000000/100000000";

/**
 * Three gateways on the stack's database and chains, as the API role builds them (startApi): the quote route not
 * rate limited, counted on Redis (production), counted on Postgres (the embedded mode).
 */
export async function startLimiterGateways(
  stack: TestStack,
  options: { trustForwardedFor: boolean },
): Promise<{ urls: Record<LimiterMode, string>; stop(): Promise<void> }> {
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const limiters: Record<LimiterMode, RateLimiter> = {
    off: createPostgresRateLimiter(stack.pool),
    redis: createRedisRateLimiter(redisUrl, `bench-quote-${randomBytes(4).toString("hex")}`),
    postgres: createPostgresRateLimiter(stack.pool),
  };
  return startModeGateways(
    stack,
    LIMITER_MODES,
    (mode) => ({
      rest: stackRest(
        stack,
        limiters[mode],
        testRouteLimits(mode === "off" ? "quote=off" : COUNTED_NEVER_REFUSED),
        options.trustForwardedFor,
      ),
    }),
    async () => {
      for (const limiter of Object.values(limiters)) await limiter.close();
    },
  );
}

/** The rounds summed up per mode; each mode's cost is against the rounds without the limiter of the same run. */
export function limiterOverhead(
  concurrency: number,
  roundMs: number,
  addresses: number,
  rounds: LimiterRound[],
): LimiterOverhead {
  const perMode = (mode: LimiterMode) => rounds.filter((r) => r.mode === mode).map((r) => r.quotesPerSecond);
  const cpuPerQuote = (r: LimiterRound): CpuPerQuote => {
    const us = (ms: number) => (ms * 1000) / r.completed;
    const { gateway, postgres, redis } = r.cpuMs;
    return { gateway: us(gateway), postgres: us(postgres), redis: us(redis), total: us(gateway + postgres + redis) };
  };
  const roundOf = (round: number, mode: LimiterMode) => rounds.find((r) => r.round === round && r.mode === mode)!;
  const percent = (ratio: number) => Math.round((1 - ratio) * 1000) / 10;
  const floor = median(perMode("off"));
  const floorOf = (round: number) => rounds.find((r) => r.round === round && r.mode === "off")!.quotesPerSecond;
  const byMode = Object.fromEntries(
    LIMITER_MODES.map((mode) => {
      const medianQuotesPerSecond = Math.round(median(perMode(mode)) * 10) / 10;
      const own = rounds.filter((r) => r.mode === mode);
      const paired = own.map((r) => r.quotesPerSecond / floorOf(r.round));
      const cpu = own.map(cpuPerQuote);
      const pairedCpu = own.map((r) => cpuPerQuote(r).total / cpuPerQuote(roundOf(r.round, "off")).total);
      const medianOf = (part: keyof CpuPerQuote) => Math.round(median(cpu.map((c) => c[part])) * 10) / 10;
      return [
        mode,
        {
          medianQuotesPerSecond,
          costPercent: percent(medianQuotesPerSecond / floor),
          pairedCostPercent: percent(median(paired)),
          roundsQuotesPerSecond: perMode(mode),
          medianCpuUsPerQuote: {
            gateway: medianOf("gateway"),
            postgres: medianOf("postgres"),
            redis: medianOf("redis"),
            total: medianOf("total"),
          },
          pairedCpuCostPercent: -percent(median(pairedCpu)),
        },
      ];
    }),
  ) as LimiterOverhead["byMode"];
  return { concurrency, roundMs, addresses, rounds, byMode };
}

/** The issue 22 target: the quote limit's check costs under 5 % of quote throughput, on the production store. */
export function limiterTargets(overhead: LimiterOverhead): Target[] {
  const load = overhead.addresses ? `${overhead.addresses} client addresses` : "one client address";
  return (["redis", "postgres"] as const).flatMap((mode) => {
    const { pairedCostPercent, pairedCpuCostPercent, roundsQuotesPerSecond } = overhead.byMode[mode];
    const rounds = `median over ${roundsQuotesPerSecond.length} rounds of each round against its own round without it, %`;
    return [
      {
        metric: `quote throughput lost to the rate-limit check, ${mode} counters, ${load} (${rounds})`,
        target: "< 5",
        measured: pairedCostPercent,
        met: pairedCostPercent < 5,
      },
      {
        metric: `extra CPU per quote for the rate-limit check (gateway + its Postgres backends + Redis), ${mode} counters, ${load} (${rounds})`,
        target: "< 5",
        measured: pairedCpuCostPercent,
        met: pairedCpuCostPercent < 5,
      },
    ];
  });
}

/** What one process group used between two snapshots (a process started in between counts from zero). */
function usedBetween(before: CpuSnapshot, after: CpuSnapshot, counts: (pid: number, group: string) => boolean): number {
  let ms = 0;
  for (const [pid, { group, ms: now }] of after) if (counts(pid, group)) ms += now - (before.get(pid)?.ms ?? 0);
  return ms;
}

/**
 * Measures the CPU `work` costs: this process (the gateways run in it; process.cpuUsage, to the microsecond), the
 * Postgres backends of `pool`'s database (not the server's other users') and the Redis server (shared with the
 * machine's other users, whose commands count too).
 */
export async function measureRoundCpu<T>(pool: pg.Pool, work: () => Promise<T>): Promise<[T, RoundCpuMs]> {
  const backendsBefore = await databaseBackends(pool);
  const before = cpuSnapshot();
  const self = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(self);
  const after = cpuSnapshot();
  const backends = new Set([...backendsBefore, ...(await databaseBackends(pool))]);
  return [
    result,
    {
      gateway: (user + system) / 1000,
      postgres: usedBetween(before, after, (pid) => backends.has(pid)),
      redis: usedBetween(before, after, (_pid, group) => group === "redis"),
    },
  ];
}

/** The pids of the Postgres backends serving `pool`'s database (the bench's own, not the other users' of the server). */
export async function databaseBackends(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database()",
  );
  return rows.map((row) => row.pid);
}
