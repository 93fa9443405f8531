import { describe, expect, it } from "vitest";
import { GAS_ESTIMATES } from "./gasEstimates.js";
import { quotedGasUnits } from "./quotedGasUnits.js";

describe("quotedGasUnits", () => {
  it("charges each operation its base, a conversion in place of a fill's, and every destination call", () => {
    expect(quotedGasUnits("fill", true)).toBe(GAS_ESTIMATES.fillNative);
    expect(quotedGasUnits("fill", false, 2)).toBe(GAS_ESTIMATES.fillErc20 + 2n * GAS_ESTIMATES.perCall);
    expect(quotedGasUnits("fill", true, 0, "wrap")).toBe(GAS_ESTIMATES.fillWrap);
    expect(quotedGasUnits("fill", false, 1, "unwrap")).toBe(GAS_ESTIMATES.fillUnwrap + GAS_ESTIMATES.perCall);
    // Calls and conversions are a fill's only.
    expect(quotedGasUnits("refund", true, 3, "wrap")).toBe(GAS_ESTIMATES.withdrawNative);
    expect(quotedGasUnits("deposit", false, 3)).toBe(GAS_ESTIMATES.depositErc20);
  });
});
