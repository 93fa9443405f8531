import { describe, expect, it } from "vitest";
import { batchPerTick } from "./batchPerTick.js";

describe("batchPerTick", () => {
  it("sends the calls of one turn as one batch, answers each call with its own value, and starts a new batch after", async () => {
    const batches: number[][] = [];
    const double = batchPerTick(async (keys: readonly number[]) => {
      batches.push([...keys]);
      return keys.map((key) => key * 2);
    });
    // Calls from separate callbacks that run in the same turn join one batch too. Immediates, not timers: timers
    // created a millisecond apart may fire in different turns (CI caught it).
    const fromCallbacks = await Promise.all(
      [1, 2, 3].map((n) => new Promise<number>((resolve) => setImmediate(() => resolve(double(n))))),
    );
    expect(fromCallbacks).toEqual([2, 4, 6]);
    expect(await Promise.all([double(4), double(4), double(5)])).toEqual([8, 8, 10]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 4, 5],
    ]);
  });

  it("splits at the batch size, and rejects every call of a batch whose run throws", async () => {
    const sizes: number[] = [];
    const echo = batchPerTick(async (keys: readonly string[]) => {
      sizes.push(keys.length);
      if (keys.includes("bad")) throw new Error("database down");
      return [...keys];
    }, 2);
    expect(await Promise.all(["a", "b", "c"].map(echo))).toEqual(["a", "b", "c"]);
    expect(sizes).toEqual([2, 1]);
    const results = await Promise.allSettled([echo("bad"), echo("x")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
