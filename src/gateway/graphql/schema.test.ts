import { readFileSync } from "node:fs";
import { printSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "./schema.js";

describe("GraphQL schema", () => {
  it("matches the committed schema/schema.graphql (run `npm run graphql:schema` after changing a type)", () => {
    const committed = readFileSync(new URL("../../../schema/schema.graphql", import.meta.url), "utf8");
    expect(`${printSchema(schema)}\n`).toBe(committed);
  });
});
