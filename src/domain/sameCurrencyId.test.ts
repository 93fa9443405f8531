import { describe, expect, it } from "vitest";
import { sameCurrencyId } from "./sameCurrencyId.js";

describe("sameCurrencyId", () => {
  it("matches hex ids in any case and base58 ids only as written", () => {
    expect(
      sameCurrencyId("0x5FbDB2315678afecb367f032d93F642f64180aa3", "0x5fbdb2315678afecb367f032d93f642f64180aa3"),
    ).toBe(true);
    expect(
      sameCurrencyId("0x5FbDB2315678afecb367f032d93F642f64180aa3", "0x5FbDB2315678afecb367f032d93F642f64180aa4"),
    ).toBe(false);
    expect(
      sameCurrencyId("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),
    ).toBe(true);
    expect(
      sameCurrencyId("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V"),
    ).toBe(false);
  });
});
