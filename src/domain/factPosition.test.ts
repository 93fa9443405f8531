import { describe, expect, it } from "vitest";
import { factPosition, indexPosition, int32Position } from "./factPosition.js";

describe("factPosition", () => {
  it("is a number while the position is a safe integer, whatever it was read from", () => {
    expect(factPosition("7")).toBe(7);
    expect(factPosition(7n)).toBe(7);
    expect(factPosition(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("is an exact bigint beyond 2^53, so two reads of a TON lt compare equal", () => {
    const lt = "18446744073709551615";
    expect(factPosition(lt)).toBe(18446744073709551615n);
    expect(factPosition(lt) === factPosition(BigInt(lt))).toBe(true);
    expect(factPosition("9007199254740993")).toBe(9007199254740993n);
  });

  it("refuses what is no position", () => {
    expect(() => factPosition("-1")).toThrow(RangeError);
    expect(() => factPosition("1.5")).toThrow(SyntaxError);
  });

  it("reads an index (a vout) only from a number position", () => {
    expect(indexPosition(factPosition("3"))).toBe(3);
    expect(() => indexPosition(factPosition(2n ** 60n))).toThrow(RangeError);
  });

  it("shows as a GraphQL Int only what fits in 32 bits", () => {
    expect(int32Position(factPosition("2147483647"))).toBe(2_147_483_647);
    expect(int32Position(factPosition("2147483648"))).toBeNull();
    expect(int32Position(factPosition(2n ** 60n + 1n))).toBeNull();
  });
});
