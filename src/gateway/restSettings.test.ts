import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { restSettings } from "./restSettings.js";

describe("restSettings", () => {
  // never connected: the Postgres limiter only queries on a hit
  const pool = new pg.Pool({ connectionString: "postgres://127.0.0.1:1/none" });
  afterAll(() => pool.end());
  const key = "11".repeat(32);

  it("derives one cursor secret per server key, so replicas agree", async () => {
    const a = restSettings(parseConfig({ API_KEY_ENCRYPTION_KEY: key }), "api", pool);
    const b = restSettings(parseConfig({ API_KEY_ENCRYPTION_KEY: `0x${key}` }), "api", pool);
    const other = restSettings(parseConfig({ API_KEY_ENCRYPTION_KEY: "22".repeat(32) }), "api", pool);
    expect(a.cursorSecret.equals(b.cursorSecret)).toBe(true);
    expect(a.cursorSecret.equals(other.cursorSecret)).toBe(false);
    expect(a.cursorSecret.equals(Buffer.from(key, "hex"))).toBe(false);
    expect(a.rateLimiter.kind).toBe("postgres");
    const redis = restSettings(
      parseConfig({ API_KEY_ENCRYPTION_KEY: key, REDIS_URL: "redis://127.0.0.1:6379" }),
      "api",
      pool,
    );
    expect(redis.rateLimiter.kind).toBe("redis");
    await redis.rateLimiter.close();
  });

  it("counts Redis hits under QUEUE_PREFIX: deployments sharing one Redis do not share limits", async () => {
    const settingsOf = (prefix: string) =>
      restSettings(parseConfig({ REDIS_URL: "redis://127.0.0.1:6379", QUEUE_PREFIX: prefix }), "dev", pool);
    const run = randomBytes(4).toString("hex");
    const [a, alsoA, b] = [settingsOf(`rl-a-${run}`), settingsOf(`rl-a-${run}`), settingsOf(`rl-b-${run}`)];
    const policy = { name: "quote", key: "203.0.113.7", limit: 1, windowSeconds: 60 };
    const now = Date.now();
    expect((await a.rateLimiter.hit(policy, now)).allowed).toBe(true);
    // the same deployment's other replica sees the count; another deployment's does not
    expect((await alsoA.rateLimiter.hit(policy, now)).allowed).toBe(false);
    expect((await b.rateLimiter.hit(policy, now)).allowed).toBe(true);
    await Promise.all([a, alsoA, b].map((settings) => settings.rateLimiter.close()));
  });

  it("requires the server key outside dev and parses the v2 schedule and proxy setting", () => {
    expect(() => restSettings(parseConfig({}), "api", pool)).toThrow(/API_KEY_ENCRYPTION_KEY is required/);
    expect(restSettings(parseConfig({}), "dev", pool).cursorSecret).toHaveLength(32);
    const config = parseConfig({ V2_THROTTLE_SCHEDULE: "2026-09-01=40%", TRUST_FORWARDED_FOR: "true" });
    expect(restSettings(config, "dev", pool)).toMatchObject({
      v2Throttle: [{ from: new Date("2026-09-01T00:00:00Z"), percent: 40 }],
      trustForwardedFor: true,
    });
    expect(restSettings(parseConfig({ RATE_LIMITS: "quote=1/2/3" }), "dev", pool).routeLimits.quote).toMatchObject({
      anonymous: 1,
      standard: 2,
      elevated: 3,
    });
    expect(() => restSettings(parseConfig({ RATE_LIMITS: "qoute=1/2/3" }), "dev", pool)).toThrow(/unknown route/);
    expect(() => parseConfig({ RATE_LIMITS: "quote=fast" })).toThrow(/RATE_LIMITS/);
    expect(() => parseConfig({ V2_THROTTLE_SCHEDULE: "soon=4" })).toThrow(/V2_THROTTLE_SCHEDULE/);
    expect(() => parseConfig({ API_KEY_ENCRYPTION_KEY: "abc" })).toThrow(/API_KEY_ENCRYPTION_KEY/);
    expect(() => parseConfig({ TRUST_FORWARDED_FOR: "yes" })).toThrow(/TRUST_FORWARDED_FOR/);
  });
});
