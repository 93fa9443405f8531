import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { isTraversableByOthers } from "./isTraversableByOthers.js";
import { ROOT_SHARE_DIR, rootOnlyFolder } from "./rootOnlyFolder.js";

/**
 * Where the devnet keeps its embedded cluster: `<devnet folder>/postgres`, unless we run as root in a folder the
 * `postgres` user cannot enter (a clone under /root). Then a folder only root may write to (`shareDir`,
 * /var/lib/crossfill by default) named after the devnet folder, so two clones never share one. The devnet's data
 * is recreated every start, so nothing is lost.
 */
export async function embeddedPostgresDataDir(devnetDir: string, shareDir = ROOT_SHARE_DIR): Promise<string> {
  const preferred = join(resolve(devnetDir), "postgres");
  if (process.getuid?.() !== 0 || (await isTraversableByOthers(dirname(preferred)))) return preferred;
  const id = createHash("sha256").update(resolve(devnetDir)).digest("hex").slice(0, 12);
  return join(await rootOnlyFolder(join(shareDir, `devnet-${id}`)), "postgres");
}
