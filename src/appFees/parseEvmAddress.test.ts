import { describe, expect, it } from "vitest";
import { parseEvmAddress } from "./parseEvmAddress.js";

describe("parseEvmAddress", () => {
  it("checksums an EVM address and refuses anything else with INVALID_ADDRESS naming the field", () => {
    expect(parseEvmAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8", "wallet")).toBe(
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    );
    for (const value of ["0x123", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", ""])
      expect(() => parseEvmAddress(value, "recipient")).toThrow(
        expect.objectContaining({ errorCode: "INVALID_ADDRESS", message: expect.stringMatching(/^recipient/) }),
      );
  });
});
