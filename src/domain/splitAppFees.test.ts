import { describe, expect, it } from "vitest";
import { splitAppFees } from "./splitAppFees.js";

describe("splitAppFees", () => {
  it("gives each recipient its basis points of the input, rounded down", () => {
    const fees = [
      { recipient: "0xa", bps: 100n },
      { recipient: "0xb", bps: 33n },
    ];
    expect(splitAppFees(1_000_000n, fees)).toEqual([10_000n, 3_300n]);
    expect(splitAppFees(99n, fees)).toEqual([0n, 0n]);
    expect(splitAppFees(1_000_000n, [])).toEqual([]);
  });
});
