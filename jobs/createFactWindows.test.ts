import { describe, expect, it } from "vitest";
import type { FactWindow } from "../schema/chainFacts.js";
import { createFactWindows } from "./createFactWindows.js";

describe("createFactWindows", () => {
  it("reads everything first and every fullEveryMs, the recent facts between", async () => {
    let clock = 1_000;
    const runPass = createFactWindows({ recentSeconds: 300, fullEveryMs: 30_000, fullReadShare: 0.01 }, () => clock);
    const windows: FactWindow[] = [];
    const record = async (window: FactWindow) => void windows.push(window);
    await runPass(record);
    clock += 29_999;
    await runPass(record);
    clock += 1;
    await runPass(record);
    await runPass(record);
    expect(windows).toEqual([{}, { recentSeconds: 300 }, {}, { recentSeconds: 300 }]);
  });

  it("spaces full reads that take long so they take at most fullReadShare of the time", async () => {
    let clock = 0;
    const runPass = createFactWindows({ recentSeconds: 300, fullEveryMs: 30_000, fullReadShare: 0.01 }, () => clock);
    const windows: FactWindow[] = [];
    // a full read of 1.7 s: the next one 170 s after it started
    await runPass(async (window) => {
      windows.push(window);
      clock += 1_700;
    });
    for (const at of [30_000, 169_999, 170_000]) {
      clock = at;
      await runPass(async (window) => void windows.push(window));
    }
    expect(windows).toEqual([{}, { recentSeconds: 300 }, { recentSeconds: 300 }, {}]);
  });

  it("reads everything again after a full read that failed", async () => {
    const runPass = createFactWindows({ recentSeconds: 60, fullEveryMs: 30_000, fullReadShare: 0.01 }, () => 0);
    await expect(
      runPass(async () => {
        throw new Error("connection lost");
      }),
    ).rejects.toThrow("connection lost");
    const windows: FactWindow[] = [];
    await runPass(async (window) => void windows.push(window));
    await runPass(async (window) => void windows.push(window));
    expect(windows).toEqual([{}, { recentSeconds: 60 }]);
  });
});
