import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../domain/errors.js";
import { parseAppFees } from "./parseAppFees.js";

const a = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const b = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

function messageOf(value: unknown): string {
  try {
    parseAppFees(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).errorCode).toBe("INVALID_INPUT");
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("parseAppFees", () => {
  it("reads several recipients with their basis points, checksummed", () => {
    expect(
      parseAppFees([
        { recipient: a, fee: "100" },
        { recipient: b, fee: "25" },
      ]),
    ).toEqual([
      { recipient: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", bps: 100n },
      { recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", bps: 25n },
    ]);
    expect(parseAppFees(undefined)).toEqual([]);
    expect(parseAppFees([])).toEqual([]);
    expect(parseAppFees([{ recipient: a, fee: "10000" }])).toHaveLength(1);
  });

  it("refuses what lies outside the documented bounds", () => {
    expect(messageOf({ recipient: a, fee: "1" })).toMatch(/must be an array/);
    expect(messageOf([{ recipient: "bc1qxyz", fee: "1" }])).toMatch(/appFees\[0\]\.recipient/);
    expect(messageOf([{ recipient: a }])).toMatch(/appFees\[0\]\.fee/);
    for (const fee of ["0", "10001", "1.5", "-1", "0x10", " 5", 5])
      expect(messageOf([{ recipient: a, fee }])).toMatch(/appFees\[0\]\.fee/);
    expect(
      messageOf([
        { recipient: a, fee: "1" },
        { recipient: a.toUpperCase().replace("0X", "0x"), fee: "1" },
      ]),
    ).toMatch(/at most once/);
    expect(
      messageOf([
        { recipient: a, fee: "6000" },
        { recipient: b, fee: "4001" },
      ]),
    ).toMatch(/10001 bps/);
    const eleven = Array.from({ length: 11 }, (_, index) => ({
      recipient: `0x${(index + 1).toString(16).padStart(40, "0")}`,
      fee: "1",
    }));
    expect(messageOf(eleven)).toMatch(/at most 10/);
  });
});
