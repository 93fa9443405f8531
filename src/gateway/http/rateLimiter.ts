import { Redis } from "ioredis";
import type pg from "pg";
import { addRateLimitPoints, deleteExpiredRateLimitPoints } from "../../../schema/rateLimitPoints.js";

export type RateLimitPolicy = { name: string; key: string; limit: number; windowSeconds: number };
export type RateLimitOutcome = { policy: RateLimitPolicy; allowed: boolean; remaining: number; resetSeconds: number };

/** Fixed-window counters shared by every gateway replica: Redis when configured, else Postgres. */
export type RateLimiter = {
  kind: "redis" | "postgres";
  hit(policy: RateLimitPolicy, nowMs: number): Promise<RateLimitOutcome>;
  close(): Promise<void>;
};

/** A count to add to one counter; `expireMs` (epoch ms, on the gateway's clock) is when the store may drop it. */
type CounterAdd = { key: string; points: number; ttlMs: number; expireMs: number };

/** Where the counters are shared: adds every count in one round trip and answers each counter's new total, in order. */
type CounterStore = (adds: readonly CounterAdd[], nowMs: number) => Promise<number[]>;

// Windows are aligned to the clock the gateway is given (tests move it), not to the store's first hit: the
// window's start is part of the key, and the store's expiry (longer than the window) only clears old counters.
const EXPIRY_MARGIN_MS = 60_000;

type Waiter = {
  policy: RateLimitPolicy;
  nowMs: number;
  resolve: (outcome: RateLimitOutcome) => void;
  reject: (error: unknown) => void;
};
type Batch = { add: CounterAdd; windowEndMs: number; waiters: Waiter[] };

/**
 * Exact fixed-window counting over `store`: every hit is decided by the total the store answers, so replicas
 * together never admit more than the limit. The hits of one event-loop turn go to the store as one call: one
 * increment per counter (its number of hits), each hit answered as if it came alone, in order. A store that fails
 * rejects every hit of that call with its error (the caller answers 503).
 */
function countingLimiter(kind: RateLimiter["kind"], store: CounterStore, close: () => Promise<void>): RateLimiter {
  const pending = new Map<string, Batch>();
  let latestNowMs = 0;
  const flush = async () => {
    const batches = [...pending.values()];
    pending.clear();
    for (const batch of batches) batch.add.points = batch.waiters.length;
    let totals: number[];
    try {
      totals = await store(
        batches.map((b) => b.add),
        latestNowMs,
      );
    } catch (error) {
      for (const batch of batches) for (const waiter of batch.waiters) waiter.reject(error);
      return;
    }
    batches.forEach(({ windowEndMs, waiters }, i) => {
      const before = totals[i] - waiters.length;
      waiters.forEach(({ policy, nowMs, resolve }, index) => {
        const points = before + index + 1;
        resolve({
          policy,
          allowed: points <= policy.limit,
          remaining: Math.max(0, policy.limit - points),
          resetSeconds: Math.max(1, Math.ceil((windowEndMs - nowMs) / 1000)),
        });
      });
    });
  };
  return {
    kind,
    hit(policy, nowMs) {
      if (nowMs > latestNowMs) latestNowMs = nowMs;
      const windowMs = policy.windowSeconds * 1000;
      const windowStart = Math.floor(nowMs / windowMs) * policy.windowSeconds;
      const key = `${policy.key}:${policy.windowSeconds}:${windowStart}`;
      return new Promise<RateLimitOutcome>((resolve, reject) => {
        // One store call per turn for every counter; setImmediate, as batchPerTick: it gathers the calls of every
        // socket read in one poll phase.
        if (pending.size === 0) setImmediate(flush);
        let batch = pending.get(key);
        if (!batch) {
          const windowEndMs = (windowStart + policy.windowSeconds) * 1000;
          const add = { key, points: 0, ttlMs: windowMs + EXPIRY_MARGIN_MS, expireMs: windowEndMs + EXPIRY_MARGIN_MS };
          pending.set(key, (batch = { add, windowEndMs, waiters: [] }));
        }
        batch.waiters.push({ policy, nowMs, resolve, reject });
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
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  // A connection error (ioredis reconnects by itself) reaches the caller's log instead of stderr.
  redis.on("error", (error: Error) => onError(error, "rate limiter"));
  return countingLimiter(
    "redis",
    async (adds) => {
      // One pipeline a turn: INCRBY answers the total every replica counted; PEXPIRE NX (Redis ≥ 7) sets the
      // expiry on the window's first count only. Plain commands, no script: Redis runs them in order for this
      // connection, and a total is all a hit needs.
      const pipeline = redis.pipeline();
      for (const { key, points, ttlMs } of adds)
        pipeline.incrby(`${prefix}:${key}`, points).pexpire(`${prefix}:${key}`, ttlMs, "NX");
      const replies = (await pipeline.exec())!;
      return adds.map((_, i) => {
        // An expiry refused (Redis < 7 has no NX) would leave counters forever: as much a failure as the count's.
        const [countError, total] = replies[2 * i];
        const [expiryError] = replies[2 * i + 1];
        if (countError ?? expiryError) throw countError ?? expiryError;
        return total as number;
      });
    },
    async () => {
      await redis.quit();
    },
  );
}

// How often the embedded mode deletes the rows of windows long over (on the gateway's clock, from a hit).
const CLEANUP_INTERVAL_MS = 60_000;

/** The embedded mode's store: the unlogged table of migration 0080, one statement a turn for every counter. */
export function createPostgresRateLimiter(pool: pg.Pool): RateLimiter {
  let nextCleanupMs = 0;
  return countingLimiter(
    "postgres",
    async (adds, nowMs) => {
      if (nowMs >= nextCleanupMs) {
        nextCleanupMs = nowMs + CLEANUP_INTERVAL_MS;
        // Its failure is the next statement's to report; the counts do not depend on it.
        void deleteExpiredRateLimitPoints(pool, nowMs).catch(() => undefined);
      }
      const totals = await addRateLimitPoints(pool, adds, nowMs);
      return adds.map((add) => totals.get(add.key)!);
    },
    async () => undefined,
  );
}
