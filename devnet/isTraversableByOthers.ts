import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * Whether a user other than the owner (embedded Postgres' `postgres` user, when we run as root) can reach
 * `path`: every folder from the root down to it must let others through. A clone under /root (mode 700) or a
 * `mktemp -d` folder does not. A path that does not exist yet is judged by the folders above it.
 */
export async function isTraversableByOthers(path: string): Promise<boolean> {
  let current = resolve(path);
  for (;;) {
    const info = await stat(current).catch(() => undefined);
    if (info?.isDirectory() && (info.mode & 0o001) === 0) return false;
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}
