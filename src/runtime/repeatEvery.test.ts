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
});
