import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { useMigratedDatabase } from "../../../test/support/useMigratedDatabase.js";
import { type RateLimiter, createPostgresRateLimiter, createRedisRateLimiter } from "./rateLimiter.js";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

describe("rate limiters shared across replicas", () => {
  const database = useMigratedDatabase({ max: 4 });
  const limiters: RateLimiter[] = [];
  afterAll(async () => {
    for (const limiter of limiters) await limiter.close();
  });

  const backends: Array<[string, () => RateLimiter]> = [
    ["redis", () => createRedisRateLimiter(redisUrl, `test-rl-${randomBytes(4).toString("hex")}`)],
    ["postgres", () => createPostgresRateLimiter(database.pool)],
  ];
  for (const [kind, make] of backends) {
    it(`${kind}: two replicas count one window together, and a new window starts afresh`, async () => {
      const first = make();
      // Redis replicas share a prefix; build the second over the same store
      const second = kind === "redis" ? first : createPostgresRateLimiter(database.pool);
      limiters.push(first);
      if (second !== first) limiters.push(second);
      const policy = { name: "t", key: `t:${randomBytes(4).toString("hex")}`, limit: 3, windowSeconds: 10 };
      const t0 = 1_800_000_000_000; // a window boundary (multiple of 10 s)
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await (i % 2 ? second : first).hit(policy, t0 + 1000 * i));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
      expect(results[3].resetSeconds).toBe(7);
      const next = await first.hit(policy, t0 + 10_000);
      expect(next).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 10 });
    });
  }

  for (const [kind, make] of backends) {
    it(`${kind}: hits of one turn go to the store as one increment and are answered one by one, in order`, async () => {
      const limiter = make();
      limiters.push(limiter);
      const policy = { name: "t", key: `t:${randomBytes(4).toString("hex")}`, limit: 3, windowSeconds: 10 };
      const t0 = 1_800_000_000_000;
      const burst = await Promise.all(Array.from({ length: 5 }, () => limiter.hit(policy, t0 + 2_000)));
      expect(burst.map((r) => [r.allowed, r.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
        [false, 0],
      ]);
      // the store holds all five: the next turn's hit is the sixth
      expect(await limiter.hit(policy, t0 + 3_000)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 7 });
      // other counters of the same turn are counted apart
      const other = { ...policy, key: `${policy.key}:other` };
      const [a, b] = await Promise.all([limiter.hit(other, t0), limiter.hit({ ...other, key: `${other.key}2` }, t0)]);
      expect([a.remaining, b.remaining]).toEqual([2, 2]);
    });
  }

  for (const [kind, make] of backends) {
    it(`${kind}: a burst over two replicas with their own connections admits the limit in all, not per replica`, async () => {
      const prefix = `test-rl-${randomBytes(4).toString("hex")}`;
      // the Postgres replicas' statements go over separate connections of the pool
      const replicas =
        kind === "redis"
          ? [createRedisRateLimiter(redisUrl, prefix), createRedisRateLimiter(redisUrl, prefix)]
          : [make(), make()];
      limiters.push(...replicas);
      const policy = { name: "t", key: `t:${randomBytes(4).toString("hex")}`, limit: 10, windowSeconds: 1 };
      const t0 = 1_800_000_000_000;
      const allowed: boolean[] = [];
      // three turns of 16 hits each, dealt out to both replicas in turn, all inside one window
      for (let turn = 0; turn < 3; turn++) {
        const hits = Array.from({ length: 16 }, (_, i) => replicas[i % 2].hit(policy, t0 + 100 * turn));
        allowed.push(...(await Promise.all(hits)).map((outcome) => outcome.allowed));
      }
      expect(allowed.filter(Boolean)).toHaveLength(10);
    });
  }

  it("redis: separate connections see the same counts", async () => {
    const prefix = `test-rl-${randomBytes(4).toString("hex")}`;
    const a = createRedisRateLimiter(redisUrl, prefix);
    const b = createRedisRateLimiter(redisUrl, prefix);
    limiters.push(a, b);
    const policy = { name: "t", key: "shared", limit: 1, windowSeconds: 60 };
    expect((await a.hit(policy, 1_800_000_000_000)).allowed).toBe(true);
    expect((await b.hit(policy, 1_800_000_000_000)).allowed).toBe(false);
  });

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
    const policy = { name: "t", key: `t:ip:${"9".repeat(400)}`, limit: 1, windowSeconds: 60 };
    expect((await limiter.hit(policy, 1_800_000_000_000)).allowed).toBe(true);
    expect((await limiter.hit(policy, 1_800_000_000_000)).allowed).toBe(false);
  });

  it("a store that cannot count rejects (the gateway answers 503) instead of allowing or refusing", async () => {
    const unreachable = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none" });
    try {
      const policy = { name: "t", key: "down", limit: 5, windowSeconds: 1 };
      await expect(createPostgresRateLimiter(unreachable).hit(policy, Date.now())).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await unreachable.end();
    }
  });
});
