import { describe, expect, it } from "vitest";
import { ACTIVATION_FEE, transferFee } from "./transferFee.js";

describe("transferFee", () => {
  it("charges 1 perps USDC (8 decimals) to activate a new account, nothing to a known one", () => {
    expect(ACTIVATION_FEE).toBe(10n ** 8n);
    expect(transferFee(true)).toBe(ACTIVATION_FEE);
    expect(transferFee(false)).toBe(0n);
  });
});
