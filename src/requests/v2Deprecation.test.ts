import { describe, expect, it } from "vitest";
import {
  DEFAULT_V2_THROTTLE,
  parseThrottleSchedule,
  v2DeprecationHeaders,
  v2IsSunset,
  v2ThrottleShare,
} from "./v2Deprecation.js";

describe("v2 deprecation schedule", () => {
  it("throttles month by month from 2026-09-01 and retires on 2026-11-24", () => {
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-08-31T23:59:59Z"))).toBeUndefined();
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-09-01T00:00:00Z"))).toBe(0.75);
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-10-15T00:00:00Z"))).toBe(0.5);
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-11-23T23:59:59Z"))).toBe(0.25);
    expect(v2IsSunset(new Date("2026-11-23T23:59:59Z"))).toBe(false);
    expect(v2IsSunset(new Date("2026-11-24T00:00:00Z"))).toBe(true);
  });

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

  it("renders Deprecation as a structured-field date and Sunset as an HTTP-date", () => {
    const headers = v2DeprecationHeaders();
    expect(headers.Deprecation).toBe("@1784678400");
    expect(headers.Sunset).toBe("Tue, 24 Nov 2026 00:00:00 GMT");
    expect(headers.Link).toMatch(/rel="deprecation".*rel="sunset".*<\/requests\/v3>; rel="successor-version"/);
  });
});
