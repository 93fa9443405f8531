import { describe, expect, it } from "vitest";
import { parseFiltersParameter, parseRequestsV3Query } from "./parseRequestsQuery.js";
import { parseRequestsV2Query } from "./parseRequestsV2Query.js";

const q = (params: Record<string, string>) =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [name, [value]]));

describe("parsing listing queries into the typed filter", () => {
  it("normalises top-level fields and applies the spec's defaults", () => {
    const parsed = parseRequestsV3Query(
      q({
        user: "0xABCDEFabcdefABCDEFabcdefABCDEFabcdefABCD",
        currencyInSymbol: "eth",
        requestType: "call",
        apiKey: "a, b",
      }),
    );
    expect(parsed.filter.conditions).toEqual([
      { field: "user", negate: false, values: ["0xabcdefabcdefabcdefabcdefabcdefabcdefabcd"] },
      { field: "apiKey", negate: false, values: ["a", "b"] },
      { field: "requestType", negate: false, values: ["Call"] },
      { field: "currencyInSymbol", negate: false, values: ["ETH"] },
    ]);
    expect(parsed).toMatchObject({ sortBy: "createdAt", sortDirection: "desc", limit: 20, includeTotal: false });
    expect(parseRequestsV3Query(q({ sortBy: "amountUsd" })).sortDirection).toBe("asc");
    expect(parseRequestsV3Query(q({ sortBy: "updatedAt" })).sortDirection).toBe("desc");
  });

  it("turns filters into OR-ed groups of AND-ed conditions with negation, arrays and null checks", () => {
    expect(
      parseFiltersParameter(
        JSON.stringify([
          { "not:status": ["success", "refund"], originChainId: "10" },
          { depositAddress: null },
          { failReason: [null] },
        ]),
      ),
    ).toEqual([
      [
        { field: "status", negate: true, values: ["success", "refund"] },
        { field: "originChainId", negate: false, values: [10] },
      ],
      [{ field: "depositAddress", negate: false, values: null }],
      [{ field: "failReason", negate: false, values: null }],
    ]);
  });

  it("keeps ranges and features top level and checks min against max", () => {
    const parsed = parseRequestsV3Query(
      q({
        startBlock: "5",
        endBlock: "9",
        amountUsdMin: "1.5",
        amountUsdMax: "10",
        features: "app_fees",
        fillTimeMax: "60",
      }),
    );
    expect(parsed.filter).toMatchObject({
      originBlock: { min: 5n, max: 9n },
      amountUsd: { min: "1.5", max: "10" },
      features: ["app_fees"],
      fillTimeSeconds: { max: 60 },
    });
    expect(() => parseRequestsV3Query(q({ amountUsdMin: "10", amountUsdMax: "9.99" }))).toThrow(
      /^amountUsdMin: must not exceed amountUsdMax/,
    );
    expect(() => parseFiltersParameter(JSON.stringify([{ endBlock: 3 }]))).toThrow(/top-level parameter only/);
  });

  it("maps v2's composite parameters onto groups", () => {
    const parsed = parseRequestsV2Query(
      q({
        user: "0x1111111111111111111111111111111111111111",
        hash: `0x${"a".repeat(64)}`,
        chainId: "10",
        originChainId: "8453",
      }),
    );
    expect(parsed.filter.groups).toHaveLength(4);
    expect(parsed.filter.conditions).toEqual([{ field: "originChainId", negate: false, values: [8453] }]);
    expect(parseRequestsV2Query(q({})).limit).toBe(20);
    expect(() => parseRequestsV2Query(q({ sortBy: "amountUsd" }))).toThrow(/^sortBy: must be createdAt or updatedAt/);
  });
});
