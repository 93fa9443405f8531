import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { fieldOccurrencesRule } from "./fieldOccurrencesRule.js";

const schema = buildSchema("type Query { stats(day: Int): Int, chains: [Int] }");
const errors = (query: string) =>
  validate(schema, parse(query), [fieldOccurrencesRule({ stats: 1 })]).map((error) => error.message);

describe("fieldOccurrencesRule", () => {
  it("allows a limited field up to its limit, counts aliases and fragments, and leaves other fields alone", () => {
    expect(errors("{ stats chains a: chains b: chains }")).toEqual([]);
    expect(errors("{ a: stats(day: 1) b: stats(day: 2) c: stats(day: 3) }")).toEqual(["at most 1 stats per operation"]);
    expect(errors("query { a: stats ...more } fragment more on Query { b: stats(day: 2) }")).toEqual([
      "at most 1 stats per operation",
    ]);
  });
});
