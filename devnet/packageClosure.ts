import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The folder a package is installed in, as `require` resolves it (an export map may hide `package.json`: walk up). */
export function installedPackageDir(require: NodeJS.Require, name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    // not exported: found from the entry below
  }
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  return dir;
}

/**
 * The packages `names` need at run time, themselves included: name → installed folder, resolved the way Node would
 * from `require`'s place and then from each package's own folder. Optional dependencies that are not installed are
 * left out; one name installed in two places (two versions) throws, as a flat copy could not hold both.
 */
export function packageClosure(require: NodeJS.Require, names: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  const queue = names.map((name) => ({ name, from: require, optional: false }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    let dir: string;
    try {
      dir = installedPackageDir(next.from, next.name);
    } catch (error) {
      if (next.optional) continue;
      throw error;
    }
    const seen = found.get(next.name);
    if (seen !== undefined) {
      if (seen !== dir) throw new Error(`${next.name} is installed twice (${seen}, ${dir}): cannot copy both flat`);
      continue;
    }
    found.set(next.name, dir);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const from = createRequire(join(dir, "package.json"));
    for (const name of Object.keys(manifest.dependencies ?? {})) queue.push({ name, from, optional: false });
    for (const name of Object.keys(manifest.optionalDependencies ?? {})) queue.push({ name, from, optional: true });
  }
  return found;
}
