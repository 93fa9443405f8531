import { describe, expect, it } from "vitest";
import { parseRateLimitOverrides } from "../../rateLimitOverrides.js";
import { DEFAULT_ROUTE_LIMITS, withRateLimitOverrides } from "./routeLimits.js";

describe("withRateLimitOverrides", () => {
  it("replaces the named limits' tiers, keeps their windows, and marks off ones", () => {
    const limits = withRateLimitOverrides(DEFAULT_ROUTE_LIMITS, parseRateLimitOverrides("quote=1/2/3,status=off"));
    expect(limits.quote).toEqual({ name: "quote", windowSeconds: 1, anonymous: 1, standard: 2, elevated: 3 });
    expect(limits.status).toMatchObject({ name: "status", off: true });
    expect(limits.price).toEqual(DEFAULT_ROUTE_LIMITS.price);
    expect(withRateLimitOverrides(DEFAULT_ROUTE_LIMITS, parseRateLimitOverrides("authorize=1/1/1")).authorize).toEqual({
      name: "authorize",
      windowSeconds: 60,
      anonymous: 1,
      standard: 1,
      elevated: 1,
    });
  });

  it("refuses an unknown route and off for limits with rules of their own", () => {
    expect(() => withRateLimitOverrides(DEFAULT_ROUTE_LIMITS, { qoute: "off" })).toThrow(/unknown route limit "qoute"/);
    expect(() => withRateLimitOverrides(DEFAULT_ROUTE_LIMITS, { authorize: "off" })).toThrow(/cannot be off/);
  });
});
