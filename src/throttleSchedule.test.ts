import { describe, expect, it } from "vitest";
import { parseThrottleSchedule } from "./throttleSchedule.js";

describe("parseThrottleSchedule", () => {
  it("parses a configured schedule in date order and refuses a bad entry", () => {
    expect(parseThrottleSchedule("2026-10-01=30%, 2026-09-01=60 %")).toEqual([
      { from: new Date("2026-09-01T00:00:00Z"), percent: 60 },
      { from: new Date("2026-10-01T00:00:00Z"), percent: 30 },
    ]);
    expect(() => parseThrottleSchedule("2026-09=60%")).toThrow(/bad throttle entry/);
    expect(() => parseThrottleSchedule("2026-09-01=fast")).toThrow(/bad throttle entry/);
    expect(() => parseThrottleSchedule("2026-09-01=6")).toThrow(/bad throttle entry/);
    expect(() => parseThrottleSchedule("2026-09-01=0%")).toThrow(/bad throttle entry/);
    expect(() => parseThrottleSchedule("2026-09-01=101%")).toThrow(/bad throttle entry/);
  });
});
