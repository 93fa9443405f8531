import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { anvilBinary } from "./anvilBinary.js";

describe("anvilBinary", () => {
  it("points at a runnable anvil", () => {
    const path = anvilBinary();
    expect(execFileSync(path, ["--version"], { encoding: "utf8" })).toMatch(/anvil/i);
  });

  it("falls back to the npm wrapper on a platform without a native package", () => {
    expect(anvilBinary("plan9", "mips")).toMatch(/node_modules\/\.bin\/anvil$/);
  });
});
