import { describe, expect, it } from "vitest";
import { formatUnits } from "./formatUnits";

describe("formatUnits", () => {
  it("places the decimal point and drops trailing zeros", () => {
    expect(formatUnits("1500000", 6)).toBe("1.5");
    expect(formatUnits("900000000000000", 18)).toBe("0.0009");
    expect(formatUnits("1000000000000000000", 18)).toBe("1");
    expect(formatUnits("0", 6)).toBe("0");
    expect(formatUnits("42", 0)).toBe("42");
  });
});
