import { describe, expect, it } from "vitest";
import { formatUsd } from "./formatUsd.js";

describe("formatUsd", () => {
  it("rounds to cents, half up, with thousands separators", () => {
    expect(formatUsd("299.8799999985")).toBe("$299.88");
    expect(formatUsd("0.125")).toBe("$0.13");
    expect(formatUsd("1234567.004")).toBe("$1,234,567.00");
    expect(formatUsd("3")).toBe("$3.00");
    expect(formatUsd("0.999")).toBe("$1.00");
  });

  it("keeps two significant digits under a cent, and the sign of a cost", () => {
    expect(formatUsd("0.004213")).toBe("$0.0042");
    expect(formatUsd("0.00000199")).toBe("$0.0000020");
    expect(formatUsd("-0.0523")).toBe("-$0.05");
    expect(formatUsd("-0.000351")).toBe("-$0.00035");
    expect(formatUsd("0")).toBe("$0.00");
    expect(formatUsd("-0.000")).toBe("$0.00");
  });

  it("leaves what is not a decimal as it came", () => {
    expect(formatUsd("n/a")).toBe("n/a");
    expect(formatUsd(undefined)).toBe("USD unknown");
  });
});
