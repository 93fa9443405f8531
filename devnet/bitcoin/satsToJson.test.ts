import { describe, expect, it } from "vitest";
import { satsToJson } from "./satsToJson.js";

describe("satsToJson", () => {
  it("converts exactly representable amounts and refuses the rest", () => {
    expect(satsToJson(2_100_000_000_000_000n)).toBe(2_100_000_000_000_000);
    expect(() => satsToJson(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(RangeError);
  });
});
