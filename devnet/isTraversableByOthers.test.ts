import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isTraversableByOthers } from "./isTraversableByOthers.js";

describe("isTraversableByOthers", () => {
  const root = mkdtempSync(join(tmpdir(), "crossfill-traverse-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is false below a folder others cannot enter, true once every folder lets them through", async () => {
    const deep = join(root, "a", "b");
    mkdirSync(deep, { recursive: true });
    chmodSync(root, 0o700);
    expect(await isTraversableByOthers(deep)).toBe(false);
    expect(await isTraversableByOthers(join(deep, "not-yet"))).toBe(false);
    chmodSync(root, 0o755);
    expect(await isTraversableByOthers(join(deep, "not-yet"))).toBe(true);
    chmodSync(join(root, "a"), 0o750);
    expect(await isTraversableByOthers(deep)).toBe(false);
  });
});
