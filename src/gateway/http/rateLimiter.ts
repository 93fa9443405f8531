import { Redis } from "ioredis";
import type pg from "pg";
import { hitRateLimitWindow, pruneRateLimitWindows } from "../../../schema/rateLimitWindows.js";

export type RateLimitPolicy = { name: string; key: string; limit: number; windowSeconds: number };
export type RateLimitOutcome = { policy: RateLimitPolicy; allowed: boolean; remaining: number; resetSeconds: number };

/** Fixed-window counters shared by every gateway replica: Redis when configured, else Postgres. */
export type RateLimiter = {
  kind: "redis" | "postgres";
  hit(policy: RateLimitPolicy, nowMs: number): Promise<RateLimitOutcome>;
  close(): Promise<void>;
};

function outcome(policy: RateLimitPolicy, hits: number, windowStart: number, nowMs: number): RateLimitOutcome {
  return {
    policy,
    allowed: hits <= policy.limit,
    remaining: Math.max(0, policy.limit - hits),
    resetSeconds: Math.max(1, Math.ceil(windowStart + policy.windowSeconds - nowMs / 1000)),
  };
}

const windowOf = (policy: RateLimitPolicy, nowMs: number) =>
  Math.floor(nowMs / 1000 / policy.windowSeconds) * policy.windowSeconds;

export function createRedisRateLimiter(redisUrl: string, prefix = "crossfill:rl"): RateLimiter {
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  return {
    kind: "redis",
    async hit(policy, nowMs) {
      const windowStart = windowOf(policy, nowMs);
      const key = `${prefix}:${policy.key}:${policy.windowSeconds}:${windowStart}`;
      const results = await redis
        .multi()
        .incr(key)
        .expire(key, policy.windowSeconds * 2)
        .exec();
      const hits = Number(results?.[0]?.[1] ?? 0);
      return outcome(policy, hits, windowStart, nowMs);
    },
    async close() {
      await redis.quit();
    },
  };
}

export function createPostgresRateLimiter(pool: pg.Pool): RateLimiter {
  let lastPrune = 0;
  return {
    kind: "postgres",
    async hit(policy, nowMs) {
      const windowStart = windowOf(policy, nowMs);
      const hits = await hitRateLimitWindow(pool, `${policy.key}:${policy.windowSeconds}`, windowStart);
      // Old windows are pruned at most once a minute per replica; any replica's prune serves all.
      if (nowMs - lastPrune > 60_000) {
        lastPrune = nowMs;
        pruneRateLimitWindows(pool, Math.floor(nowMs / 1000) - 3600).catch(() => undefined);
      }
      return outcome(policy, hits, windowStart, nowMs);
    },
    async close() {},
  };
}
