import { describe, expect, it } from "vitest";
import type { FactWindow } from "../schema/unappliedFacts.js";
import { createFactWindows } from "./createFactWindows.js";

const options = { recentSeconds: 300, fullEveryMs: 30_000, fullReadShare: 0.01 };

describe("createFactWindows", () => {
  let windows: FactWindow[];
  /** A pass that records its window, takes `tookMs` of the clock and reports whether it read a full batch. */
  const pass =
    (clock: { now: number }, { more = false, tookMs = 0 } = {}) =>
    async (window: FactWindow) => {
      windows.push(window);
      clock.now += tookMs;
      return { more };
    };

  it("reads everything first and every fullEveryMs, the recent facts between", async () => {
    windows = [];
    const clock = { now: 1_000 };
    const runPass = createFactWindows(options, () => clock.now);
    await runPass(pass(clock));
    clock.now += 29_999;
    await runPass(pass(clock));
    clock.now += 1;
    await runPass(pass(clock));
    await runPass(pass(clock));
    expect(windows).toEqual([{}, { recentSeconds: 300 }, {}, { recentSeconds: 300 }]);
  });

  it("spaces full reads that take long so they take at most fullReadShare of the time", async () => {
    windows = [];
    const clock = { now: 0 };
    const runPass = createFactWindows(options, () => clock.now);
    // a full read of 1.7 s: the next one 170 s after it started
    await runPass(pass(clock, { tookMs: 1_700 }));
    for (const at of [30_000, 169_999, 170_000]) {
      clock.now = at;
      await runPass(pass(clock));
    }
    expect(windows).toEqual([{}, { recentSeconds: 300 }, { recentSeconds: 300 }, {}]);
  });

  it("reads everything again after a full read that failed", async () => {
    windows = [];
    const clock = { now: 0 };
    const runPass = createFactWindows(options, () => clock.now);
    await expect(
      runPass(async () => {
        throw new Error("connection lost");
      }),
    ).rejects.toThrow("connection lost");
    await runPass(pass(clock));
    await runPass(pass(clock));
    expect(windows).toEqual([{}, { recentSeconds: 300 }]);
  });

  it("reads everything again at once after a full read that read a full batch (a backlog)", async () => {
    windows = [];
    const clock = { now: 0 };
    const runPass = createFactWindows(options, () => clock.now);
    for (const more of [true, true, false, false]) await runPass(pass(clock, { more }));
    expect(windows).toEqual([{}, {}, {}, { recentSeconds: 300 }]);
  });
});
