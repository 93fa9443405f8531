import { describe, expect, it } from "vitest";
import { coalesceRuns } from "./coalesceRuns.js";

describe("coalesceRuns", () => {
  it("runs one at a time, and folds every call made during a run into one more run", async () => {
    let started = 0;
    let active = 0;
    let maxActive = 0;
    const releases: Array<() => void> = [];
    const run = coalesceRuns(async () => {
      const n = ++started;
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise<void>((release) => releases.push(release));
      active -= 1;
      return n;
    });
    const first = run();
    const second = run();
    const third = run();
    expect(started).toBe(1);
    releases.shift()!();
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(2);
    releases.shift()!();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    expect(maxActive).toBe(1);
    // idle again: the next call starts a run of its own
    const fourth = run();
    expect(started).toBe(3);
    releases.shift()!();
    expect(await fourth).toBe(3);
  });

  it("still runs the queued run after a failed one", async () => {
    let calls = 0;
    const run = coalesceRuns(async () => {
      calls += 1;
      if (calls === 1) throw new Error("first fails");
      return calls;
    });
    const failing = run();
    const after = run();
    await expect(failing).rejects.toThrow("first fails");
    expect(await after).toBe(2);
  });
});
