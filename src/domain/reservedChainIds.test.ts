import { describe, expect, it } from "vitest";
import { isReservedChainId } from "./reservedChainIds.js";

describe("isReservedChainId", () => {
  it("reserves the perps exchange's, Bitcoin's and Solana's ids only", () => {
    expect(isReservedChainId(1337)).toBe(true);
    expect(isReservedChainId(8253038)).toBe(true);
    expect(isReservedChainId(792703809)).toBe(true);
    expect(isReservedChainId(31337)).toBe(false);
  });
});
