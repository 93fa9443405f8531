import { describe, expect, it } from "vitest";
import { DEFAULT_V2_THROTTLE, v2DeprecationHeaders, v2IsSunset, v2ThrottleShare } from "./v2Deprecation.js";

describe("v2 deprecation schedule", () => {
  it("throttles month by month from 2026-09-01 and retires on 2026-11-24", () => {
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-08-31T23:59:59Z"))).toBeUndefined();
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-09-01T00:00:00Z"))).toBe(0.75);
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-10-15T00:00:00Z"))).toBe(0.5);
    expect(v2ThrottleShare(DEFAULT_V2_THROTTLE, new Date("2026-11-23T23:59:59Z"))).toBe(0.25);
    expect(v2IsSunset(new Date("2026-11-23T23:59:59Z"))).toBe(false);
    expect(v2IsSunset(new Date("2026-11-24T00:00:00Z"))).toBe(true);
  });

  it("renders Deprecation as a structured-field date and Sunset as an HTTP-date", () => {
    const headers = v2DeprecationHeaders();
    expect(headers.Deprecation).toBe("@1784678400");
    expect(headers.Sunset).toBe("Tue, 24 Nov 2026 00:00:00 GMT");
    expect(headers.Link).toMatch(/rel="deprecation".*rel="sunset".*<\/requests\/v3>; rel="successor-version"/);
  });
});
