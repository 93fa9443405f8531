import { describe, expect, it } from "vitest";
import { replacementFee } from "./replacementFee.js";

describe("replacementFee", () => {
  it("pays a quarter more than the replaced fee when that is the most", () => {
    expect(replacementFee({ fee: 10_000n }, 200n, 1)).toBe(12_500n);
  });
  it("pays the replaced fee plus 1 sat/vB of its size when that is the most (the relay rule)", () => {
    expect(replacementFee({ fee: 400n }, 200n, 1)).toBe(600n);
  });
  it("pays the current rate for its size when that is the most, rounded up", () => {
    expect(replacementFee({ fee: 400n }, 201n, 10.5)).toBe(2_111n);
  });
});
