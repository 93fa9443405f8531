import { describe, expect, it } from "vitest";
import { pluginYoga } from "../../../../test/support/pluginYoga.js";
import { codeValidationErrors } from "./codeValidationErrors.js";
import { refuseNulStrings } from "./refuseNulStrings.js";

describe("codeValidationErrors", () => {
  it("codes every validation error GRAPHQL_VALIDATION_FAILED, keeping a rule's own code", async () => {
    const post = pluginYoga([refuseNulStrings, codeValidationErrors]);
    const { codes, body } = await post("{ goodbye hello(nope: 1) }");
    expect(codes).toEqual(["GRAPHQL_VALIDATION_FAILED", "GRAPHQL_VALIDATION_FAILED"]);
    expect(body.errors?.[0]?.message).toMatch(/goodbye/);
    expect((await post('{ hello(name: "a\\u0000b") }')).codes).toEqual(["INVALID_INPUT"]);
  });
});
