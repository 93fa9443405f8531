import { spawn as importedSpawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { withOwnProcessGroups } from "./withOwnProcessGroups.js";

/** The process group of `pid`: field 5 of /proc/<pid>/stat (after the parenthesised command name). */
function processGroup(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

async function groupOfChild(): Promise<number> {
  // Called through the named import, as a library does.
  const child = importedSpawn("sleep", ["5"], { stdio: "ignore" });
  try {
    return processGroup(child.pid!);
  } finally {
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

describe("withOwnProcessGroups", () => {
  it("puts children spawned inside it in a group of their own, and only those", async () => {
    const ours = processGroup(process.pid);
    expect(await groupOfChild()).toBe(ours);
    const inside = await withOwnProcessGroups(() => groupOfChild());
    expect(inside).not.toBe(ours);
    expect(await groupOfChild()).toBe(ours);
  });

  it("restores spawn when the start fails", async () => {
    await expect(withOwnProcessGroups(() => Promise.reject(new Error("no start")))).rejects.toThrow("no start");
    expect(await groupOfChild()).toBe(processGroup(process.pid));
  });
});
