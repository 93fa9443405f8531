import { Redis } from "ioredis";
import type pg from "pg";
import { addRateLimitPoints, deleteExpiredRateLimitPoints } from "../../../schema/rateLimitPoints.js";

export type RateLimitPolicy = { name: string; key: string; limit: number; windowSeconds: number };
export type RateLimitOutcome = { policy: RateLimitPolicy; allowed: boolean; remaining: number; resetSeconds: number };

/** Fixed-window counters shared by every gateway replica: Redis when configured, else Postgres. */
export type RateLimiter = {
  kind: "redis" | "postgres";
  hit(policy: RateLimitPolicy, nowMs: number): Promise<RateLimitOutcome>;
  /** Sends the counts not sent yet and stops the timers. */
  close(): Promise<void>;
};

/** Where the counters are shared: adds each count and answers each counter's new total, in order. */
export type CounterStore = {
  add(counts: readonly { key: string; points: number; ttlMs: number }[]): Promise<number[]>;
  close(): Promise<void>;
};

/** How long counts wait in memory before they go to the store, together: the only store traffic of the hot path. */
export const FLUSH_INTERVAL_MS = 25;
// The store keeps a counter this much past its window, so a late flush still lands on a live counter.
const EXPIRY_MARGIN_MS = 60_000;
const SWEEP_INTERVAL_MS = 1_000;

type Waiter = {
  policy: RateLimitPolicy;
  nowMs: number;
  resolve: (outcome: RateLimitOutcome) => void;
  reject: (error: unknown) => void;
};
type Counter = {
  key: string;
  windowEndMs: number;
  ttlMs: number;
  /** The store's total at this process's last flush of the counter (every replica's flushed hits). */
  stored: number;
  /** Hits this process admitted that are in the flush under way, and that are not sent yet. */
  sending: number;
  unsent: number;
  /** Hits decided by the store's answer (before the first flush that worked, and after one that failed). */
  waiters: Waiter[];
};

const outcomeOf = (policy: RateLimitPolicy, windowEndMs: number, nowMs: number, points: number): RateLimitOutcome => ({
  policy,
  allowed: points <= policy.limit,
  remaining: Math.max(0, policy.limit - points),
  resetSeconds: Math.max(1, Math.ceil((windowEndMs - nowMs) / 1000)),
});

/**
 * Counts locally and sends the counts to `store` in one batch every FLUSH_INTERVAL_MS; a hit is decided at once,
 * in memory: allowed while the store's total as last read back for its counter plus this process's admitted hits
 * not read back yet stays within the limit. One process is exact. With N replicas a window can admit more than its
 * limit by what the other replicas admitted that this one has not read back yet: their hits since its last flush of
 * that counter (one interval and a round trip), or, in its first interval on that counter, all of theirs in that
 * window. Each replica alone stays within the limit, so never more than N × limit.
 *
 * Windows are aligned to the clock the gateway is given (tests move it): the window's start is part of the key, and
 * the store's expiry only clears old counters. A window over on that clock is dropped from memory once sent.
 *
 * The store's failure: until a flush has worked (at start, and after one failed), hits wait for the next flush's
 * answer and reject with the store's error when it fails (the gateway answers 503); the admitted hits of a failed
 * flush are sent again with the next one.
 */
export function countingLimiter(kind: RateLimiter["kind"], store: CounterStore): RateLimiter {
  const counters = new Map<string, Counter>();
  const dirty = new Set<Counter>();
  let healthy = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let latestNowMs = -Infinity;
  let lastSweep = 0;

  const sweep = () => {
    lastSweep = Date.now();
    for (const [key, counter] of counters)
      if (counter.windowEndMs <= latestNowMs && !dirty.has(counter) && counter.sending === 0) counters.delete(key);
  };

  const send = async () => {
    const batch = [...dirty];
    dirty.clear();
    const waiters = batch.map((counter) => counter.waiters);
    for (const counter of batch) {
      counter.sending = counter.unsent;
      counter.unsent = 0;
      counter.waiters = [];
    }
    let totals: number[];
    try {
      totals = await store.add(
        batch.map((c, i) => ({ key: c.key, points: c.sending + waiters[i].length, ttlMs: c.ttlMs })),
      );
    } catch (error) {
      healthy = false;
      batch.forEach((counter, i) => {
        counter.unsent += counter.sending;
        counter.sending = 0;
        if (counter.unsent > 0) dirty.add(counter);
        for (const waiter of waiters[i]) waiter.reject(error);
      });
      return;
    }
    healthy = true;
    batch.forEach((counter, i) => {
      // The waiters come after the admitted hits of the batch, in the order they arrived.
      const before = totals[i] - waiters[i].length;
      counter.stored = Math.max(counter.stored, totals[i]);
      counter.sending = 0;
      waiters[i].forEach((w, index) =>
        w.resolve(outcomeOf(w.policy, counter.windowEndMs, w.nowMs, before + index + 1)),
      );
    });
  };

  const flush = async () => {
    timer = undefined;
    if (Date.now() - lastSweep >= SWEEP_INTERVAL_MS) sweep();
    if (dirty.size === 0) return;
    flushing = send();
    await flushing;
    flushing = undefined;
    schedule();
  };

  function schedule() {
    if (timer || flushing || dirty.size === 0 || closed) return;
    timer = setTimeout(flush, FLUSH_INTERVAL_MS);
    // A flush of admitted hits never keeps the process alive; close() sends what is left.
    timer.unref();
  }

  return {
    kind,
    hit(policy, nowMs) {
      if (closed) return Promise.reject(new Error("the rate limiter is closed"));
      if (nowMs > latestNowMs) latestNowMs = nowMs;
      const windowMs = policy.windowSeconds * 1000;
      const windowStart = Math.floor(nowMs / windowMs) * policy.windowSeconds;
      const key = `${policy.key}:${policy.windowSeconds}:${windowStart}`;
      let counter = counters.get(key);
      if (!counter) {
        const windowEndMs = (windowStart + policy.windowSeconds) * 1000;
        const ttlMs = windowMs + EXPIRY_MARGIN_MS;
        counter = { key, windowEndMs, ttlMs, stored: 0, sending: 0, unsent: 0, waiters: [] };
        counters.set(key, counter);
      }
      if (!healthy) {
        const waiting = counter;
        return new Promise((resolve, reject) => {
          waiting.waiters.push({ policy, nowMs, resolve, reject });
          dirty.add(waiting);
          schedule();
          // Someone awaits this flush: it keeps the process alive (a flush of admitted hits does not).
          timer?.ref();
        });
      }
      const points = counter.stored + counter.sending + counter.unsent + 1;
      // Refused hits are not counted: past the limit the count no longer matters.
      if (points <= policy.limit) {
        counter.unsent += 1;
        dirty.add(counter);
        schedule();
      }
      return Promise.resolve(outcomeOf(policy, counter.windowEndMs, nowMs, points));
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await flushing;
      if (dirty.size > 0) await send().catch(() => undefined);
      await store.close();
    },
  };
}

// Adds every count of a flush in one call: INCRBY and PEXPIRE per counter, one round trip and one command to parse.
const ADD_COUNTS_LUA = `local totals = {}
for i, key in ipairs(KEYS) do
  totals[i] = redis.call('INCRBY', key, ARGV[2 * i - 1])
  redis.call('PEXPIRE', key, ARGV[2 * i])
end
return totals`;

type CountingRedis = Redis & { crossfillAddCounts(keys: number, ...args: (string | number)[]): Promise<number[]> };

export function createRedisRateLimiter(
  redisUrl: string,
  prefix = "crossfill:rl",
  onError: (error: Error, source: string) => void = () => undefined,
): RateLimiter {
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) as CountingRedis;
  redis.defineCommand("crossfillAddCounts", { lua: ADD_COUNTS_LUA });
  // A connection error (ioredis reconnects by itself) reaches the caller's log instead of stderr.
  redis.on("error", (error: Error) => onError(error, "rate limiter"));
  return countingLimiter("redis", {
    add: (counts) =>
      redis.crossfillAddCounts(
        counts.length,
        ...counts.map((c) => `${prefix}:${c.key}`),
        ...counts.flatMap((c) => [c.points, c.ttlMs]),
      ),
    async close() {
      await redis.quit();
    },
  });
}

// The embedded mode's cleanup of counters past their expiry (the window and a minute), as Redis's own expiry does.
const CLEANUP_INTERVAL_MS = 5 * 60_000;

/** The embedded mode's store: the unlogged table of migration 0080, one statement per flush. */
export function createPostgresRateLimiter(pool: pg.Pool): RateLimiter {
  // A failed cleanup is retried at the next one; the rows it left only take space.
  const cleanup = setInterval(() => {
    deleteExpiredRateLimitPoints(pool, Date.now()).catch(() => undefined);
  }, CLEANUP_INTERVAL_MS);
  cleanup.unref();
  return countingLimiter("postgres", {
    async add(counts) {
      // The store's expiry is on the machine's clock: windows on a test's clock are cleared like any others.
      const now = Date.now();
      const totals = await addRateLimitPoints(
        pool,
        counts.map((c) => ({ key: c.key, points: c.points, expire: now + c.ttlMs })),
        now,
      );
      return counts.map((c) => totals.get(c.key)!);
    },
    async close() {
      clearInterval(cleanup);
    },
  });
}
