import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEVNET_OWNER_FILE, removeOrphanedDevnetData } from "./removeOrphanedDevnetData.js";

describe("removeOrphanedDevnetData", () => {
  const root = mkdtempSync(join(tmpdir(), "crossfill-orphans-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const devnetFolder = (name: string, owner?: string, pid?: number) => {
    const folder = join(root, "share", name);
    mkdirSync(join(folder, "postgres"), { recursive: true });
    if (owner) writeFileSync(join(folder, DEVNET_OWNER_FILE), owner);
    if (pid) writeFileSync(join(folder, "postgres", "postmaster.pid"), `${pid}\n`);
    return folder;
  };

  it("removes the folders of deleted clones and of the old layout, keeps live ones", async () => {
    mkdirSync(join(root, "clone-a"));
    const kept = devnetFolder("devnet-a", join(root, "clone-a", ".devnet")); // clone there, .devnet not made yet
    const gone = devnetFolder("devnet-b", join(root, "clone-b", ".devnet")); // clone deleted
    const legacy = devnetFolder("devnet-c"); // no owner file
    const runningLegacy = devnetFolder("devnet-d", undefined, process.pid); // its Postgres runs
    const other = devnetFolder("embedded-postgres-18-x64");
    expect((await removeOrphanedDevnetData(join(root, "share"))).sort()).toEqual([gone, legacy].sort());
    for (const folder of [kept, runningLegacy, other]) expect(existsSync(folder)).toBe(true);
    for (const folder of [gone, legacy]) expect(existsSync(folder)).toBe(false);
  });

  it("is a no-op without a share folder", async () => {
    expect(await removeOrphanedDevnetData(join(root, "absent"))).toEqual([]);
  });
});
