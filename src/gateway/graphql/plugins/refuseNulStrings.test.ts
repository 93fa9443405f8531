import { describe, expect, it } from "vitest";
import { pluginYoga } from "../../../../test/support/pluginYoga.js";
import { refuseNulStrings } from "./refuseNulStrings.js";

describe("refuseNulStrings", () => {
  it("refuses a string literal holding U+0000, naming its argument; other strings run", async () => {
    const post = pluginYoga([refuseNulStrings]);
    const refused = await post('{ hello(name: "a\\u0000b") }');
    expect(refused.codes).toEqual(["INVALID_INPUT"]);
    expect(refused.body.errors?.[0]?.message).toBe("name must not contain control characters (U+0000)");
    expect(refused.body.data).toBeUndefined();
    expect((await post('{ hello(name: "ab") }')).body).toEqual({ data: { hello: "hello ab" } });
  });
});
