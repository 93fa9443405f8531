import { describe, expect, it } from "vitest";
import { pluginYoga } from "../../../../test/support/pluginYoga.js";
import { codeVariableErrors } from "./codeVariableErrors.js";

describe("codeVariableErrors", () => {
  const post = pluginYoga([codeVariableErrors]);

  it("codes variables that do not coerce INVALID_INPUT: the operation never ran", async () => {
    const { codes, body } = await post("query ($n: Int) { hello(times: $n) }", { n: "many" });
    expect(codes).toEqual(["INVALID_INPUT"]);
    expect(body.data).toBeUndefined();
  });

  it("leaves a resolver's own error as it is: the operation ran", async () => {
    expect((await post("{ unavailable }")).codes).toEqual(["SERVICE_UNAVAILABLE"]);
  });
});
