import { describe, expect, it } from "vitest";
import { repeatEvery } from "./repeatEvery.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("repeatEvery", () => {
  it("repeats the pass, never two at once, carries on after failures (each new one reported once), and close waits for the pass under way", async () => {
    const failures = ["database down", "database down", undefined, "database down", "timeout"];
    const reported: string[] = [];
    let running = 0;
    let overlapped = false;
    let passes = 0;
    let finished = 0;
    const loop = repeatEvery(
      1,
      async () => {
        const failure = failures[passes];
        passes += 1;
        running += 1;
        overlapped ||= running > 1;
        await sleep(10);
        running -= 1;
        finished += 1;
        if (failure) throw new Error(failure);
      },
      (error) => reported.push((error as Error).message),
    );
    while (passes < failures.length) await sleep(5);
    await loop.close();
    expect(overlapped).toBe(false);
    expect(finished).toBe(passes);
    // a failure after a success is reported again
    expect(reported.slice(0, 3)).toEqual(["database down", "database down", "timeout"]);
    const after = passes;
    await sleep(40);
    expect(passes).toBe(after);
  });

  it("starts after firstAfterMs, waits what a pass returns, and after failures what retryDelay gives for the failures in a row", async () => {
    // An hour is "never" here: each loop goes on, or stops, only through the option or the delay under test.
    const hour = 3_600_000;
    let passes = 0;
    const returning = repeatEvery(
      hour,
      async () => {
        passes += 1;
        return passes < 3 ? 0 : undefined;
      },
      () => undefined,
      { firstAfterMs: 0 },
    );
    while (passes < 3) await sleep(5);
    await sleep(20);
    await returning.close();
    expect(passes).toBe(3);

    const outcomes = ["fail", "ok", "fail", "fail"];
    const retries: number[] = [];
    passes = 0;
    const failing = repeatEvery(
      0,
      async () => {
        passes += 1;
        if (outcomes[passes - 1] === "fail") throw new Error("source down");
      },
      () => undefined,
      {
        retryDelay: (failures) => {
          retries.push(failures);
          return failures >= 2 ? hour : 0;
        },
      },
    );
    while (passes < outcomes.length) await sleep(5);
    await sleep(20);
    await failing.close();
    expect(passes).toBe(outcomes.length);
    expect(retries).toEqual([1, 1, 2]);
  });
});
