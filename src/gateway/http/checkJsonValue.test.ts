import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, checkJsonValue } from "./checkJsonValue.js";

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe("checkJsonValue", () => {
  it("names the first string or key holding U+0000 by its JSON path", () => {
    expect(() => checkJsonValue({ referrer: "a\u0000b" })).toThrow(
      "referrer must not contain control characters (U+0000)",
    );
    expect(() => checkJsonValue({ txs: [{ data: "0x" }, { data: "\u0000" }] })).toThrow(/^txs\[1\]\.data must not/);
    expect(() => checkJsonValue({ details: { "k\u0000": 1 } })).toThrow(/^details\.k\\u0000 must not/);
    expect(() => checkJsonValue({ id: "\u0000" }, "variables")).toThrow(/^variables\.id must not/);
    expect(() => checkJsonValue("\u0000")).toThrow(/^body must not/);
    expect(() => checkJsonValue({ a: "tab\tand newline\n are fine", b: [null, 1, true] })).not.toThrow();
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels without recursing, whatever the depth`, () => {
    expect(() => checkJsonValue(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => checkJsonValue(nested(MAX_JSON_DEPTH + 1))).toThrow(
      `the request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(() => checkJsonValue(nested(200_000))).toThrow(/nested deeper/);
    expect(() => checkJsonValue(nested(MAX_JSON_DEPTH + 1), "variables")).toThrow(
      /^variables are nested deeper than 64 levels/,
    );
  });
});
