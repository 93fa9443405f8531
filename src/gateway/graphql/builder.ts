import SchemaBuilder from "@pothos/core";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import type { GraphqlContext } from "./graphqlContext.js";

/**
 * The one Pothos builder. Each domain type lives in `types/<name>.ts` with its own queries, mutations and
 * subscriptions, and `schema.ts` imports them all before building. Fields are non-null unless marked.
 */
export const builder = new SchemaBuilder<{
  Context: GraphqlContext;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date };
  };
}>({
  plugins: [DataloaderPlugin],
  defaultFieldNullability: false,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

builder.scalarType("JSON", {
  description: "Any JSON value: used only where the interface specification leaves the shape untyped.",
  serialize: (value) => value,
  parseValue: (value) => value,
});

// Years 1–9999: ISO 8601 without expanded years, and well inside what Postgres timestamps hold.
const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

builder.scalarType("DateTime", {
  description: "An ISO 8601 timestamp.",
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError("DateTime must be an ISO 8601 timestamp");
    if (date.getTime() < EARLIEST || date.getTime() > LATEST)
      throw new TypeError("DateTime must be within the years 0001 to 9999");
    return date;
  },
});
