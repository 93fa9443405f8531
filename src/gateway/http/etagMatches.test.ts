import { describe, expect, it } from "vitest";
import { etagMatches } from "./etagMatches.js";

describe("etagMatches", () => {
  it("matches the tag itself, in a list, weakened, or *", () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches("*", '"abc"')).toBe(true);
  });

  it("does not match another tag, an unquoted one or no header", () => {
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches("abc", '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
    expect(etagMatches("", '"abc"')).toBe(false);
  });
});
