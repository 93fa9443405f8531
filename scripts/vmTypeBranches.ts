import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** A comparison of a chain's VM type or a reserved chain id: what asking a family (its capabilities) replaces. */
export const VM_TYPE_BRANCH = /vmType ===|vmType !==|=== "(evm|bvm|svm|tonvm|hypevm)"|8253038|\b1337\b/;

/** The folders scanned: everything that runs (apps/: the composition), besides the families' own folders. */
export const SCANNED = ["src", "jobs", "schema", "indexers", "apps"];

/** The registry and the constants: the only places outside a family's folders that may name a VM type or an id. */
export const ALLOWED = ["src/chains/families.ts", "src/chains/familyOfChain.ts", "src/domain/reservedChainIds.ts"];

const TESTS = /(\.test\.ts$|^test\/|\/test\/)/;

function filesUnder(root: string, folder: string): string[] {
  const path = join(root, folder);
  let entries: string[];
  try {
    entries = readdirSync(path);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const child = `${folder}/${name}`;
    if (name === "node_modules" || name.startsWith(".") || name === "generated") return [];
    return statSync(join(root, child)).isDirectory() ? filesUnder(root, child) : [child];
  });
}

/**
 * The lines under `root` that compare a VM type or a reserved chain id outside the places allowed to: a family's own
 * folders (src/chains/<vm>/, indexers/<vm>/, devnet/<vm>/, the <vm> being a folder of src/chains), the registry and
 * the constants; tests are free to.
 */
export function vmTypeBranches(root: string): string[] {
  const families = readdirSync(join(root, "src/chains")).filter((name) =>
    statSync(join(root, "src/chains", name)).isDirectory(),
  );
  const familyFolder = new RegExp(`^(src/chains|indexers|devnet)/(${families.join("|")})/`);
  return SCANNED.flatMap((folder) => filesUnder(root, folder))
    .filter((path) => /\.(ts|tsx|js|mjs|cjs)$/.test(path) && !TESTS.test(path))
    .filter((path) => !familyFolder.test(path) && !ALLOWED.includes(path))
    .flatMap((path) =>
      readFileSync(join(root, path), "utf8")
        .split("\n")
        .flatMap((line, index) => (VM_TYPE_BRANCH.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
}
