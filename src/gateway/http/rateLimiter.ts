import { Redis } from "ioredis";
import type pg from "pg";
import { type RateLimiterAbstract, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

export type RateLimitPolicy = { name: string; key: string; limit: number; windowSeconds: number };
export type RateLimitOutcome = { policy: RateLimitPolicy; allowed: boolean; remaining: number; resetSeconds: number };

/** Fixed-window counters shared by every gateway replica: Redis when configured, else Postgres. */
export type RateLimiter = {
  kind: "redis" | "postgres";
  hit(policy: RateLimitPolicy, nowMs: number): Promise<RateLimitOutcome>;
  close(): Promise<void>;
};

// Windows are aligned to the clock the gateway is given (tests move it), not to the store's first hit: the
// window's start is part of the key, and the store's expiry (longer than the window) only clears old counters.
const EXPIRY_MARGIN_SECONDS = 60;

type Waiter = { nowMs: number; resolve: (outcome: RateLimitOutcome) => void; reject: (error: unknown) => void };

/**
 * Counts with npm rate-limiter-flexible over `store`, one library limiter per (limit, window) pair; a store that
 * fails rejects with its error (the caller answers 503), a call past the limit resolves as not allowed. The hits of
 * one counter within one event-loop turn go to the store as one increment of their number, each answered as if it
 * came alone, in order: a burst from one caller (64 quotes in flight, a flood) costs the store one round trip.
 */
function countingLimiter(
  kind: RateLimiter["kind"],
  store: (points: number, durationSeconds: number) => RateLimiterAbstract,
  close: () => Promise<void>,
): RateLimiter {
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (policy: RateLimitPolicy) => {
    const id = `${policy.limit}/${policy.windowSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) limiters.set(id, (limiter = store(policy.limit, policy.windowSeconds + EXPIRY_MARGIN_SECONDS)));
    return limiter;
  };
  type Batch = { policy: RateLimitPolicy; counter: string; windowStart: number; waiters: Waiter[] };
  const pending = new Map<string, Batch>();
  const flush = async ({ policy, counter, windowStart, waiters }: Batch) => {
    let consumed: RateLimiterRes;
    try {
      consumed = await limiterFor(policy).consume(counter, waiters.length);
    } catch (rejection) {
      // The library rejects with its result past the limit, with the store's error otherwise.
      if (!(rejection instanceof RateLimiterRes)) {
        for (const waiter of waiters) waiter.reject(rejection);
        return;
      }
      consumed = rejection;
    }
    const before = consumed.consumedPoints - waiters.length;
    waiters.forEach((waiter, index) => {
      const points = before + index + 1;
      waiter.resolve({
        policy,
        allowed: points <= policy.limit,
        remaining: Math.max(0, policy.limit - points),
        resetSeconds: Math.max(1, Math.ceil(windowStart + policy.windowSeconds - waiter.nowMs / 1000)),
      });
    });
  };
  const flushAll = () => {
    const batches = [...pending.values()];
    pending.clear();
    for (const batch of batches) void flush(batch);
  };
  return {
    kind,
    hit(policy, nowMs) {
      const windowStart = Math.floor(nowMs / 1000 / policy.windowSeconds) * policy.windowSeconds;
      const counter = `${policy.key}:${policy.windowSeconds}:${windowStart}`;
      const id = `${policy.limit}/${policy.windowSeconds}/${counter}`;
      return new Promise<RateLimitOutcome>((resolve, reject) => {
        // One flush of every counter per turn; setImmediate, as batchPerTick: it gathers the calls of every socket
        // read in one poll phase.
        if (pending.size === 0) setImmediate(flushAll);
        let batch = pending.get(id);
        if (!batch) pending.set(id, (batch = { policy, counter, windowStart, waiters: [] }));
        batch.waiters.push({ nowMs, resolve, reject });
      });
    },
    close,
  };
}

export function createRedisRateLimiter(
  redisUrl: string,
  prefix = "crossfill:rl",
  onError: (error: Error, source: string) => void = () => undefined,
): RateLimiter {
  // Auto-pipelining: the counters of one event-loop turn (many callers at once) go to Redis in one write.
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  // A connection error (ioredis reconnects by itself) reaches the caller's log instead of stderr.
  redis.on("error", (error: Error) => onError(error, "rate limiter"));
  return countingLimiter(
    "redis",
    (points, duration) => new RateLimiterRedis({ storeClient: redis, keyPrefix: prefix, points, duration }),
    async () => {
      await redis.quit();
    },
  );
}

/** The embedded mode's store: the table of migration 0080; the library's own expired-row cleanup runs on one limiter. */
export function createPostgresRateLimiter(pool: pg.Pool): RateLimiter {
  let cleaning = false;
  return countingLimiter(
    "postgres",
    (points, duration) => {
      const clearExpiredByTimeout = !cleaning;
      cleaning = true;
      return new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        schemaName: "crossfill",
        tableName: "rate_limit_points",
        tableCreated: true,
        clearExpiredByTimeout,
        keyPrefix: "",
        points,
        duration,
      });
    },
    async () => undefined,
  );
}
