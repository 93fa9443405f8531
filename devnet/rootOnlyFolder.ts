import { lstat, mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** Where root keeps what embedded Postgres' own user must reach: a folder only root can write to. */
export const ROOT_SHARE_DIR = "/var/lib/crossfill";

/**
 * Throws unless `path` is a real folder or file (not a link) owned by root that no one else can write. Root runs
 * code from these folders: one another user could plant or change would run that user's code as root.
 */
export async function assertRootOnly(path: string): Promise<void> {
  const info = await lstat(path);
  if (info.isSymbolicLink() || info.uid !== 0 || (info.mode & 0o022) !== 0) {
    throw new Error(`refusing ${path}: it must be root's own and writable by root alone (not a link)`);
  }
}

/**
 * Creates `path` (mode 755) and checks it and every folder above it: each is root's own, and one that others
 * may write to (the temp directory) must be sticky, so nobody can swap what root created there.
 */
export async function rootOnlyFolder(path: string): Promise<string> {
  const folder = resolve(path);
  await mkdir(folder, { recursive: true, mode: 0o755 });
  await assertRootOnly(folder);
  for (let above = dirname(folder); ; above = dirname(above)) {
    const info = await lstat(above);
    const sticky = (info.mode & 0o1000) !== 0;
    if (info.isSymbolicLink() || info.uid !== 0 || ((info.mode & 0o022) !== 0 && !sticky)) {
      throw new Error(`refusing ${folder}: ${above} above it may be changed by users other than root`);
    }
    if (dirname(above) === above) return folder;
  }
}
