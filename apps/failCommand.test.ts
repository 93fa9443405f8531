import { describe, expect, it } from "vitest";
import { failCommand } from "./failCommand.js";

describe("failCommand", () => {
  it("prints one error line and answers exit code 1", () => {
    const lines: string[] = [];
    expect(failCommand((line) => lines.push(line), "no such refund")).toBe(1);
    expect(lines).toEqual(["error: no such refund"]);
  });
});
