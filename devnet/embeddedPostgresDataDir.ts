import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { isTraversableByOthers } from "./isTraversableByOthers.js";
import { DEVNET_OWNER_FILE, removeOrphanedDevnetData } from "./removeOrphanedDevnetData.js";
import { ROOT_SHARE_DIR, rootOnlyFolder } from "./rootOnlyFolder.js";

/**
 * Where the devnet keeps its embedded cluster: `<devnet folder>/postgres`, unless we run as root in a folder the
 * `postgres` user cannot enter (a clone under /root). Then a folder only root may write to (`shareDir`,
 * /var/lib/crossfill by default) named after the devnet folder, so two clones never share one. The devnet's data
 * is recreated every start, so nothing is lost. The folder names its devnet folder, and the folders of clones since
 * deleted are removed on the way (removeOrphanedDevnetData).
 */
export async function embeddedPostgresDataDir(devnetDir: string, shareDir = ROOT_SHARE_DIR): Promise<string> {
  const preferred = join(resolve(devnetDir), "postgres");
  if (process.getuid?.() !== 0 || (await isTraversableByOthers(dirname(preferred)))) return preferred;
  const id = createHash("sha256").update(resolve(devnetDir)).digest("hex").slice(0, 12);
  const folder = await rootOnlyFolder(join(shareDir, `devnet-${id}`));
  await writeFile(join(folder, DEVNET_OWNER_FILE), resolve(devnetDir), { mode: 0o644 });
  await removeOrphanedDevnetData(shareDir);
  return join(folder, "postgres");
}
