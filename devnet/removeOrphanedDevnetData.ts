import { existsSync } from "node:fs";
import { readFile, readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The file in a `devnet-<id>` folder that names the devnet folder (in a clone) it belongs to. */
export const DEVNET_OWNER_FILE = "devnet-folder";

function running(pidFile: string): Promise<boolean> {
  return readFile(pidFile, "utf8").then(
    (text) => {
      const pid = Number(text.split("\n")[0]);
      if (!Number.isInteger(pid) || pid <= 0) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    () => false,
  );
}

/**
 * Removes the `devnet-<id>` data folders under `shareDir` whose clone is gone (the folder holding the devnet folder
 * their owner file names no longer exists: the devnet folder itself may not be made yet), and those of an earlier layout without an owner file; never one whose Postgres runs. A
 * devnet's data is recreated every start, so nothing of value is lost. Returns the folders removed.
 */
export async function removeOrphanedDevnetData(shareDir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(shareDir).catch(() => [] as string[])) {
    if (!name.startsWith("devnet-")) continue;
    const folder = join(shareDir, name);
    const owner = await readFile(join(folder, DEVNET_OWNER_FILE), "utf8").catch(() => undefined);
    if (owner !== undefined && existsSync(dirname(owner))) continue;
    if (await running(join(folder, "postgres", "postmaster.pid"))) continue;
    await rm(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}
