import { describe, expect, it } from "vitest";
import { reportNewErrors } from "./reportNewErrors.js";

describe("reportNewErrors", () => {
  it("reports a failure once while it repeats, a different one at once, and the same again after a success", () => {
    const reported: string[] = [];
    const errors = reportNewErrors((error) => reported.push(error instanceof Error ? error.message : String(error)));
    errors.failed(new Error("database down"));
    errors.failed(new Error("database down"));
    errors.failed(new Error("timeout"));
    errors.succeeded();
    errors.failed(new Error("timeout"));
    errors.failed("not an Error");
    expect(reported).toEqual(["database down", "timeout", "timeout", "not an Error"]);
  });
});
