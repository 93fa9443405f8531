import { describe, expect, it } from "vitest";
import { parseRateLimitOverrides } from "./rateLimitOverrides.js";

describe("parseRateLimitOverrides", () => {
  it("reads each route's three tiers or off", () => {
    expect(parseRateLimitOverrides(" quote=5/20/50, status=off,")).toEqual({
      quote: { anonymous: 5, standard: 20, elevated: 50 },
      status: "off",
    });
    expect(parseRateLimitOverrides("")).toEqual({});
  });

  it("refuses a malformed or repeated entry, naming it", () => {
    expect(() => parseRateLimitOverrides("quote=5/20")).toThrow(/bad rate limit entry "quote=5\/20"/);
    expect(() => parseRateLimitOverrides("quote=-1/2/3")).toThrow(/bad rate limit entry/);
    expect(() => parseRateLimitOverrides("quote=1.5/2/3")).toThrow(/bad rate limit entry/);
    expect(() => parseRateLimitOverrides("quote=off,quote=1/2/3")).toThrow(/given twice/);
  });
});
