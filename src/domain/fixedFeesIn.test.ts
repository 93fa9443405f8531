import { describe, expect, it } from "vitest";
import { fixedFeesInOf } from "./fixedFeesIn.js";

describe("fixedFeesInOf", () => {
  it("reads the stored quote's fixed fees, 0 for quotes stored before them", () => {
    expect(fixedFeesInOf({ fixedFeesIn: "5000" })).toBe(5000n);
    expect(fixedFeesInOf({ fees: {} })).toBe(0n);
    expect(fixedFeesInOf(null)).toBe(0n);
  });
});
