import { randomBytes } from "node:crypto";
import { createStatusBus } from "../src/events/createStatusBus.js";
import {
  type RateLimiter,
  createPostgresRateLimiter,
  createRedisRateLimiter,
} from "../src/gateway/http/rateLimiter.js";
import type { RunningApi } from "../src/gateway/startApi.js";
import type { TestStack } from "../test/support/startTestStack.js";
import { testRouteLimits } from "../test/support/testRateLimits.js";
import { startStackApi } from "./startStackApi.js";
import type { Target } from "./target.js";

/** The gateways the rounds alternate between: the same quote engine and database, only the quote limit differs. */
export const LIMITER_MODES = ["off", "redis", "postgres"] as const;
export type LimiterMode = (typeof LIMITER_MODES)[number];

export type LimiterRound = { round: number; mode: LimiterMode; quotesPerSecond: number; errors: number };
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
    { medianQuotesPerSecond: number; costPercent: number; pairedCostPercent: number; roundsQuotesPerSecond: number[] }
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
  const bus = createStatusBus();
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const limiters: Record<LimiterMode, RateLimiter> = {
    off: createPostgresRateLimiter(stack.pool),
    redis: createRedisRateLimiter(redisUrl, `bench-quote-${randomBytes(4).toString("hex")}`),
    postgres: createPostgresRateLimiter(stack.pool),
  };
  const apis: RunningApi[] = [];
  const urls = {} as Record<LimiterMode, string>;
  for (const mode of LIMITER_MODES) {
    const api = await startStackApi(stack, bus, {
      rest: {
        cursorSecret: randomBytes(32),
        serverKey: stack.serverKey,
        rateLimiter: limiters[mode],
        routeLimits: testRouteLimits(mode === "off" ? "quote=off" : COUNTED_NEVER_REFUSED),
        trustForwardedFor: options.trustForwardedFor,
        websocketConnectionsPerAddress: 500,
      },
    });
    apis.push(api);
    urls[mode] = api.url;
  }
  return {
    urls,
    async stop() {
      for (const api of apis) await api.close();
      for (const limiter of Object.values(limiters)) await limiter.close();
      await bus.close();
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The rounds summed up per mode; each mode's cost is against the rounds without the limiter of the same run. */
export function limiterOverhead(
  concurrency: number,
  roundMs: number,
  addresses: number,
  rounds: LimiterRound[],
): LimiterOverhead {
  const perMode = (mode: LimiterMode) => rounds.filter((r) => r.mode === mode).map((r) => r.quotesPerSecond);
  const percent = (ratio: number) => Math.round((1 - ratio) * 1000) / 10;
  const floor = median(perMode("off"));
  const floorOf = (round: number) => rounds.find((r) => r.round === round && r.mode === "off")!.quotesPerSecond;
  const byMode = Object.fromEntries(
    LIMITER_MODES.map((mode) => {
      const medianQuotesPerSecond = Math.round(median(perMode(mode)) * 10) / 10;
      const paired = rounds.filter((r) => r.mode === mode).map((r) => r.quotesPerSecond / floorOf(r.round));
      return [
        mode,
        {
          medianQuotesPerSecond,
          costPercent: percent(medianQuotesPerSecond / floor),
          pairedCostPercent: percent(median(paired)),
          roundsQuotesPerSecond: perMode(mode),
        },
      ];
    }),
  ) as LimiterOverhead["byMode"];
  return { concurrency, roundMs, addresses, rounds, byMode };
}

/** The issue 22 target: the quote limit's check costs under 5 % of quote throughput, on the production store. */
export function limiterTargets(overhead: LimiterOverhead): Target[] {
  return (["redis", "postgres"] as const).map((mode) => ({
    metric: `quote throughput lost to the rate-limit check, ${mode} counters, ${overhead.addresses ? `${overhead.addresses} client addresses` : "one client address"} (median over ${overhead.byMode[mode].roundsQuotesPerSecond.length} rounds of each round against its own round without it, %)`,
    target: "< 5",
    measured: overhead.byMode[mode].pairedCostPercent,
    met: overhead.byMode[mode].pairedCostPercent < 5,
  }));
}
