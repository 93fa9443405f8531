import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { useMigratedDatabase } from "../../../test/support/useMigratedDatabase.js";
import {
  type CounterStore,
  FLUSH_INTERVAL_MS,
  type RateLimiter,
  countingLimiter,
  createPostgresRateLimiter,
  createRedisRateLimiter,
} from "./rateLimiter.js";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const T0 = 1_800_000_000_000; // a window boundary (multiple of 10 s)
const policyOf = (limit: number, windowSeconds = 10) => ({
  name: "t",
  key: `t:${randomBytes(4).toString("hex")}`,
  limit,
  windowSeconds,
});
const allowedOf = (outcomes: { allowed: boolean }[]) => outcomes.map((o) => o.allowed);
// Past one flush and its round trip.
const afterFlush = () => sleep(FLUSH_INTERVAL_MS * 4);

/** A store in memory that records each batch and can be made to fail. */
function memoryStore() {
  const totals = new Map<string, number>();
  const batches: { key: string; points: number }[][] = [];
  const state = { failWith: undefined as Error | undefined, closed: false };
  const store: CounterStore = {
    async add(counts) {
      if (state.failWith) throw state.failWith;
      batches.push(counts.map(({ key, points }) => ({ key, points })));
      return counts.map((c) => {
        const total = (totals.get(c.key) ?? 0) + c.points;
        totals.set(c.key, total);
        return total;
      });
    },
    async close() {
      state.closed = true;
    },
  };
  return { store, totals, batches, state };
}

describe("countingLimiter: counted in memory, sent in batches", () => {
  it("one process is exact: a burst and the hits after it are answered in order against the limit", async () => {
    const { store, batches } = memoryStore();
    const limiter = countingLimiter("redis", store);
    const policy = policyOf(5);
    // Before the first flush has worked, hits wait for the store's answer.
    const first = await Promise.all([limiter.hit(policy, T0 + 1000), limiter.hit(policy, T0 + 1000)]);
    expect(first.map((o) => [o.allowed, o.remaining, o.resetSeconds])).toEqual([
      [true, 4, 9],
      [true, 3, 9],
    ]);
    // Then at once, in memory, whether or not the counts were sent yet.
    const burst = await Promise.all(Array.from({ length: 5 }, () => limiter.hit(policy, T0 + 3000)));
    expect(burst.map((o) => [o.allowed, o.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    await afterFlush();
    expect(await limiter.hit(policy, T0 + 9999)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    // The hits of one interval went to the store as one count; refused hits are not counted.
    expect(batches).toEqual([
      [{ key: `${policy.key}:10:1800000000`, points: 2 }],
      [{ key: expect.any(String), points: 3 }],
    ]);
    await limiter.close();
  });

  it("many counters of one interval go to the store in one batch", async () => {
    const { store, batches } = memoryStore();
    const limiter = countingLimiter("redis", store);
    await limiter.hit(policyOf(5), T0);
    const policies = Array.from({ length: 50 }, () => policyOf(5));
    for (const policy of policies) expect((await limiter.hit(policy, T0)).remaining).toBe(4);
    await afterFlush();
    expect(batches).toHaveLength(2);
    expect(batches[1]).toHaveLength(50);
    await limiter.close();
  });

  it("a new window starts afresh on the clock the gateway is given", async () => {
    const { store } = memoryStore();
    const limiter = countingLimiter("redis", store);
    const policy = policyOf(2);
    expect(allowedOf([await limiter.hit(policy, T0), await limiter.hit(policy, T0 + 9_000)])).toEqual([true, true]);
    expect(await limiter.hit(policy, T0 + 9_999)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(await limiter.hit(policy, T0 + 10_000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 10 });
    await limiter.close();
  });

  it("two limiters on one store: each alone stays within the limit; together they admit at most what the other has not read back", async () => {
    const { store, totals } = memoryStore();
    const a = countingLimiter("redis", store);
    const b = countingLimiter("redis", store);
    const policy = policyOf(4);
    // Both learn the counter from the store (their first hit waits for it): 2 counted, then each admits at once.
    expect((await a.hit(policy, T0)).remaining).toBe(3);
    expect((await b.hit(policy, T0)).remaining).toBe(2);
    // Within one interval each sees only its own unsent hits on top of what it read back: a overshoots by b's.
    const fromA = await Promise.all([a.hit(policy, T0), a.hit(policy, T0), a.hit(policy, T0)]);
    const fromB = await Promise.all([b.hit(policy, T0), b.hit(policy, T0), b.hit(policy, T0)]);
    expect(allowedOf(fromA)).toEqual([true, true, true]);
    expect(allowedOf(fromB)).toEqual([true, true, false]);
    await afterFlush();
    // 7 admitted against a limit of 4: a missed b's first hit, b missed a's three since a's last flush.
    expect(totals.get(`${policy.key}:10:1800000000`)).toBe(7);
    // Once both have flushed and read back, neither admits more.
    await afterFlush();
    expect(allowedOf([await a.hit(policy, T0), await b.hit(policy, T0)])).toEqual([false, false]);
    await a.close();
    await b.close();
  });

  it("a failed flush: the next hits fail with the store's error until a flush works; no admitted hit is lost", async () => {
    const { store, totals, state } = memoryStore();
    const limiter = countingLimiter("redis", store);
    const policy = policyOf(10);
    await limiter.hit(policy, T0);
    state.failWith = new Error("store down");
    // Admitted at once; its flush fails.
    expect((await limiter.hit(policy, T0)).allowed).toBe(true);
    await afterFlush();
    await expect(limiter.hit(policy, T0)).rejects.toThrow("store down");
    await expect(limiter.hit(policyOf(10), T0)).rejects.toThrow("store down");
    state.failWith = undefined;
    // The next flush works: it answers the waiting hit and carries the count the failed one did not deliver.
    expect(await limiter.hit(policy, T0)).toMatchObject({ allowed: true, remaining: 7 });
    expect(totals.get(`${policy.key}:10:1800000000`)).toBe(3);
    // And hits are decided at once again.
    expect((await limiter.hit(policy, T0)).remaining).toBe(6);
    await limiter.close();
  });

  it("close() sends what is not sent yet, stops, and closes the store; a pending flush keeps no process alive", async () => {
    const { store, totals, state } = memoryStore();
    const limiter = countingLimiter("redis", store);
    const policy = policyOf(10);
    await limiter.hit(policy, T0);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    await limiter.hit(policy, T0);
    // The flush of that hit is pending, on an unref'd timer.
    expect(timers()).toBe(before);
    await limiter.close();
    expect(totals.get(`${policy.key}:10:1800000000`)).toBe(2);
    expect(state.closed).toBe(true);
    await expect(limiter.hit(policy, T0)).rejects.toThrow(/closed/);
  });
});

describe("rate limiters shared across replicas", () => {
  const database = useMigratedDatabase({ max: 4 });
  const limiters: RateLimiter[] = [];
  afterAll(async () => {
    for (const limiter of limiters) await limiter.close();
  });

  const backends: Array<[string, (prefix: string) => RateLimiter]> = [
    ["redis", (prefix) => createRedisRateLimiter(redisUrl, prefix)],
    ["postgres", () => createPostgresRateLimiter(database.pool)],
  ];
  for (const [kind, make] of backends) {
    it(`${kind}: one replica is exact; a second one reads the first's counts back from the store`, async () => {
      const prefix = `test-rl-${randomBytes(4).toString("hex")}`;
      const first = make(prefix);
      const second = make(prefix);
      limiters.push(first, second);
      const policy = policyOf(3);
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await first.hit(policy, T0 + 1000 * i));
      expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(results[3].resetSeconds).toBe(7);
      await afterFlush();
      // The first's three admitted hits are in the store: the second's first hit is the fourth.
      expect((await second.hit(policy, T0 + 5000)).allowed).toBe(false);
      expect(await first.hit(policy, T0 + 10_000)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 10 });
    });
  }

  it("redis: a connection error reaches onError, not stderr, and a hit meanwhile rejects", async () => {
    const consoleError = vi.spyOn(console, "error");
    const errors: string[] = [];
    // port 1: refused
    const limiter = createRedisRateLimiter("redis://127.0.0.1:1", "test-rl-down", (error, source) =>
      errors.push(`${source}: ${(error as Error & { code?: string }).code}`),
    );
    try {
      const policy = { name: "t", key: "down", limit: 5, windowSeconds: 1 };
      await expect(limiter.hit(policy, Date.now())).rejects.toThrow();
      await vi.waitFor(() => expect(errors).toContain("rate limiter: ECONNREFUSED"));
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await limiter.close().catch(() => undefined);
    }
  });

  it("postgres: keys longer than 255 characters count (a trusted X-Forwarded-For hop is the client's to choose)", async () => {
    const limiter = createPostgresRateLimiter(database.pool);
    limiters.push(limiter);
    const policy = { name: "t", key: `t:ip:${"9".repeat(400)}`, limit: 1, windowSeconds: 60 };
    expect((await limiter.hit(policy, T0)).allowed).toBe(true);
    expect((await limiter.hit(policy, T0)).allowed).toBe(false);
  });

  it("postgres: a counter past its expiry that the cleanup has not deleted yet starts afresh", async () => {
    const limiter = createPostgresRateLimiter(database.pool);
    limiters.push(limiter);
    const policy = policyOf(1);
    await database.pool.query("INSERT INTO crossfill.rate_limit_points (key, points, expire) VALUES ($1, 1, 1)", [
      `${policy.key}:10:1800000000`,
    ]);
    expect((await limiter.hit(policy, T0)).allowed).toBe(true);
  });

  it("a store that cannot count rejects (the gateway answers 503) instead of allowing or refusing", async () => {
    const unreachable = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none" });
    const limiter = createPostgresRateLimiter(unreachable);
    try {
      const policy = { name: "t", key: "down", limit: 5, windowSeconds: 1 };
      await expect(limiter.hit(policy, Date.now())).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await limiter.close();
      await unreachable.end();
    }
  });
});
