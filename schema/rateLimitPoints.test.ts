import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { addRateLimitPoints, deleteExpiredRateLimitPoints } from "./rateLimitPoints.js";

describe("rate-limit counters in Postgres", () => {
  const database = useMigratedDatabase();
  const now = 1_800_000_000_000;

  it("adds every count in one statement, starts a counter past its expiry afresh, and deletes expired rows", async () => {
    const [a, b] = [`a:${randomBytes(4).toString("hex")}`, `b:${randomBytes(4).toString("hex")}`];
    const first = await addRateLimitPoints(
      database.pool,
      [
        { key: b, points: 2, expireMs: now + 1_000 },
        { key: a, points: 3, expireMs: now + 60_000 },
      ],
      now,
    );
    expect(Object.fromEntries(first)).toEqual({ [a]: 3, [b]: 2 });
    // concurrent statements over overlapping counters (locked in key order) both count
    const [x, y] = await Promise.all([
      addRateLimitPoints(database.pool, [{ key: a, points: 1, expireMs: now + 60_000 }], now),
      addRateLimitPoints(
        database.pool,
        [
          { key: b, points: 1, expireMs: now + 1_000 },
          { key: a, points: 1, expireMs: now + 60_000 },
        ],
        now,
      ),
    ]);
    expect([x.get(a), y.get(a)].sort()).toEqual([4, 5]);
    expect(y.get(b)).toBe(3);
    // b's row is past its expiry but not deleted yet: it counts from zero
    const later = await addRateLimitPoints(database.pool, [{ key: b, points: 1, expireMs: now + 3_000 }], now + 2_000);
    expect(later.get(b)).toBe(1);

    await deleteExpiredRateLimitPoints(database.pool, now + 3_000);
    const { rows } = await database.pool.query<{ key: string }>(
      "SELECT key FROM crossfill.rate_limit_points WHERE key = ANY($1)",
      [[a, b]],
    );
    expect(rows.map((row) => row.key)).toEqual([a]);
  });
});
