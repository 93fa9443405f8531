import { GraphQLError } from "graphql";
import { createSchema, createYoga, maskError } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { CrossfillError, InvalidInputError, isCrossfillError } from "../../../domain/errors.js";
import { type Metrics, createMetrics } from "../../../metrics/createMetrics.js";
import { domainGraphqlError } from "../domainGraphqlError.js";
import { observeCreateQuote } from "./observeCreateQuote.js";

/** A yoga whose createQuote answers by its input, masking errors as the gateway does (createGraphqlServer). */
function server(metrics: Metrics) {
  const schema = createSchema({
    typeDefs: `type Query { ok: Boolean } type Mutation { createQuote(kind: String!): String }`,
    resolvers: {
      Mutation: {
        createQuote: (_: unknown, { kind }: { kind: string }) => {
          if (kind === "refused") throw new InvalidInputError("AMOUNT_TOO_LOW", "too little");
          if (kind === "unavailable")
            throw new CrossfillError("PRICE_FETCH_FAILED", "no price", { status: 503, retryable: true });
          if (kind === "bug") throw new Error("a bug");
          return "quoted";
        },
      },
    },
  });
  return createYoga({
    schema,
    plugins: [observeCreateQuote(metrics)],
    maskedErrors: {
      maskError(error, message, isDev) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (isCrossfillError(original)) return domainGraphqlError(original, error as GraphQLError);
        return maskError(error, message, isDev);
      },
    },
    logging: false,
  });
}

describe("observeCreateQuote", () => {
  it("counts each createQuote of a mutation by outcome and errorCode, and nothing else", async () => {
    const metrics = createMetrics("api");
    const yoga = server(metrics);
    const post = (query: string) =>
      yoga.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
    await post(`mutation { a: createQuote(kind: "quoted") b: createQuote(kind: "refused") }`);
    await post(`mutation { createQuote(kind: "unavailable") }`);
    await post(`mutation { createQuote(kind: "bug") }`);
    await post(`query { ok }`);
    const { values } = await metrics.registry.getSingleMetric("crossfill_quotes_total")!.get();
    expect(values.map(({ labels, value }) => [labels.endpoint, labels.outcome, labels.errorCode, value])).toEqual(
      expect.arrayContaining([
        ["graphql createQuote", "quoted", "", 1],
        ["graphql createQuote", "refused", "AMOUNT_TOO_LOW", 1],
        ["graphql createQuote", "failed", "PRICE_FETCH_FAILED", 1],
        ["graphql createQuote", "failed", "UNKNOWN_ERROR", 1],
      ]),
    );
    expect(values).toHaveLength(4);
  });
});
