import { describe, expect, it } from "vitest";
import { nativeConversionOf } from "./nativeConversion.js";

describe("nativeConversionOf", () => {
  it("converts Wraps and Unwraps only", () => {
    expect(nativeConversionOf("Wrap")).toBe("wrap");
    expect(nativeConversionOf("Unwrap")).toBe("unwrap");
    for (const other of ["Send", "Same-chain Swap", "Bridge", "Crosschain Swap", "Call"])
      expect(nativeConversionOf(other)).toBeUndefined();
  });
});
