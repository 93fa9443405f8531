import { describe, expect, it } from "vitest";
import { pluginYoga } from "../../../../test/support/pluginYoga.js";
import { codeValidationErrors } from "./codeValidationErrors.js";
import { errorStatus } from "./errorStatus.js";

describe("errorStatus", () => {
  const post = pluginYoga([codeValidationErrors, errorStatus]);

  it("answers 400 to an operation that never ran: it does not parse or validate", async () => {
    expect(await post("{ hello(")).toMatchObject({ status: 400, codes: ["GRAPHQL_PARSE_FAILED"] });
    expect(await post("{ goodbye }")).toMatchObject({ status: 400, codes: ["GRAPHQL_VALIDATION_FAILED"] });
  });

  it("answers 503 to one that failed only for a dependency, and 200 to one that ran", async () => {
    expect(await post("{ unavailable }")).toMatchObject({ status: 503, codes: ["SERVICE_UNAVAILABLE"] });
    expect(await post("{ hello }")).toMatchObject({ status: 200, body: { data: { hello: "hello you" } } });
    // Partly answered, every error a dependency's: still a 503, retry later.
    expect(await post("{ hello unavailable }")).toMatchObject({ status: 503, body: { data: { hello: "hello you" } } });
  });
});
