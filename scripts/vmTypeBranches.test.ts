import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { vmTypeBranches } from "./vmTypeBranches.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const roots: string[] = [];

function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "crossfill-vmtype-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("no VM-type branches outside the families (scripts/vmTypeBranches.ts)", () => {
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it("finds none in the repository: code asks a chain's family instead", () => {
    expect(vmTypeBranches(repo)).toEqual([]);
  });

  it("finds each planted comparison, and leaves the families' folders, the registry, constants and tests alone", () => {
    const root = tree({
      "src/chains/evm/evmChainFamily.ts": 'export const isEvm = (c: { vmType: string }) => c.vmType === "evm";\n',
      "src/chains/families.ts": "export const found = (a: { vmType: string }, b: string) => a.vmType === b;\n",
      "src/domain/reservedChainIds.ts": "export const BITCOIN_CHAIN_ID = 8253038;\n",
      "src/domain/perpsChain.ts": "export const PERPS_CHAIN_ID = 1337;\n",
      "indexers/evm/watch.ts": 'export const w = (vm: string) => vm === "evm";\n',
      "src/quote/validate.ts": 'export const v = (c: { vmType: string }) => c.vmType !== "evm";\n',
      "src/quote/validate.test.ts": 'export const t = (c: { vmType: string }) => c.vmType === "bvm";\n',
      "jobs/fill.ts": 'export const f = (vm: string) => vm === "bvm";\n',
      "schema/ids.ts": "export const PERPS = 1337;\nexport const NOT_IT = 13370;\n",
      "indexers/poller/start.ts": "export const BTC = 8253038;\n",
      "apps/cli.ts": 'export const c = (vm: string) => vm === "svm";\n',
    });
    expect(vmTypeBranches(root)).toEqual([
      // a reserved id written anywhere but the one constants file
      "src/domain/perpsChain.ts:1: export const PERPS_CHAIN_ID = 1337;",
      'src/quote/validate.ts:1: export const v = (c: { vmType: string }) => c.vmType !== "evm";',
      'jobs/fill.ts:1: export const f = (vm: string) => vm === "bvm";',
      "schema/ids.ts:1: export const PERPS = 1337;",
      "indexers/poller/start.ts:1: export const BTC = 8253038;",
      'apps/cli.ts:1: export const c = (vm: string) => vm === "svm";',
    ]);
  });
});
