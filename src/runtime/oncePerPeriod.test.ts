import { describe, expect, it } from "vitest";
import { oncePerPeriod } from "./oncePerPeriod.js";

describe("oncePerPeriod", () => {
  it("reports a key once per period, with how many times it was passed over since", () => {
    let now = 0;
    const shouldReport = oncePerPeriod({ periodMs: 1_000, now: () => now });
    expect(shouldReport("ETH")).toBe(0);
    expect(shouldReport("ETH")).toBeUndefined();
    expect(shouldReport("BTC")).toBe(0);
    now = 999;
    expect(shouldReport("ETH")).toBeUndefined();
    now = 1_000;
    expect(shouldReport("ETH")).toBe(2);
    expect(shouldReport("ETH")).toBeUndefined();
    now = 5_000;
    expect(shouldReport("ETH")).toBe(1);
    expect(shouldReport("BTC")).toBe(0);
  });

  it("remembers at most maxKeys keys, forgetting the longest unreported first", () => {
    let now = 0;
    const shouldReport = oncePerPeriod({ periodMs: 60_000, maxKeys: 2, now: () => now });
    expect(shouldReport("a")).toBe(0);
    now = 1;
    expect(shouldReport("b")).toBe(0);
    expect(shouldReport("c")).toBe(0);
    // "a" was forgotten: reported again at once; "c" is still remembered.
    expect(shouldReport("a")).toBe(0);
    expect(shouldReport("c")).toBeUndefined();
  });
});
