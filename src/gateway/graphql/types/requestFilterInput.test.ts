import { describe, expect, it } from "vitest";
import { parseRequestsV3Query } from "../../rest/parseRequestsQuery.js";
import { toRequestFilter } from "./requestFilterInput.js";

const USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

describe("toRequestFilter", () => {
  it("maps ranges, features and null checks into the filter GET /requests/v3 parses from the same query", () => {
    const graphql = toRequestFilter({
      user: [USER],
      startBlock: "7",
      endBlock: "9007199254740991",
      amountUsdMin: "1.5",
      amountUsdMax: "20",
      appFeesAmountUsdMin: "0",
      appFeesAmountUsdMax: "0.25",
      fillTimeMin: 0,
      fillTimeMax: 60,
      features: ["fast_fill", "app_fees"],
      anyOf: [{ isNull: ["depositTxHash"], isNotNull: ["referrer"] }, { status: ["success"] }],
    });
    const rest = parseRequestsV3Query({
      user: [USER],
      startBlock: ["7"],
      endBlock: ["9007199254740991"],
      amountUsdMin: ["1.5"],
      amountUsdMax: ["20"],
      appFeesAmountUsdMin: ["0"],
      appFeesAmountUsdMax: ["0.25"],
      fillTimeMin: ["0"],
      fillTimeMax: ["60"],
      features: ["fast_fill,app_fees"],
      filters: [JSON.stringify([{ depositTxHash: null, "not:referrer": null }, { status: "success" }])],
    }).filter;
    expect(graphql).toEqual(rest);
  });

  it("puts top-level null checks beside the other conditions, each field once", () => {
    expect(toRequestFilter({ isNull: ["depositAddress", "depositAddress"], isNotNull: ["user"] }).conditions).toEqual([
      { field: "depositAddress", negate: false, values: null },
      { field: "user", negate: true, values: null },
    ]);
  });

  it.each([
    [{ amountUsdMin: "ten" }, /^filter\.amountUsdMin: must be a non-negative decimal number/],
    [{ startBlock: "-1" }, /^filter\.startBlock: must be/],
    [{ fillTimeMin: 10, fillTimeMax: 5 }, /^filter\.fillTimeMin: must not exceed fillTimeMax/],
    [
      { appFeesAmountUsdMin: "2", appFeesAmountUsdMax: "1" },
      /^filter\.appFeesAmountUsdMin: must not exceed appFeesAmountUsdMax/,
    ],
    [{ features: ["warp_drive"] }, /^filter\.features: must be a comma-separated list of/],
    [{ features: [] }, /^filter\.features/],
    [{ user: [USER], isNull: ["user"] }, /^filter\.isNull: user is also given values/],
    [
      { anyOf: [{ status: ["success"], isNull: ["status"] }] },
      /^filter\.anyOf\[0\]\.isNull: status is also given values/,
    ],
  ] as const)("refuses %j as INVALID_INPUT naming the field", (input, message) => {
    expect(() => toRequestFilter(input as never)).toThrow(
      expect.objectContaining({ errorCode: "INVALID_INPUT", message: expect.stringMatching(message) }),
    );
  });
});
