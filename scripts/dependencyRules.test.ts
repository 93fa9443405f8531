import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("..", import.meta.url));
const depcruise = join(repo, "node_modules", ".bin", "depcruise");

/** A tree of files in a fresh folder, with the repository's node_modules and tsconfig, checked by our rules. */
function check(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "crossfill-boundaries-"));
  roots.push(root);
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { moduleResolution: "Bundler" } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const folders = [...new Set(Object.keys(files).map((path) => path.split("/")[0]))];
  const run = spawnSync(depcruise, ["--config", join(repo, ".dependency-cruiser.cjs"), ...folders], {
    cwd: root,
    encoding: "utf8",
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}
const roots: string[] = [];

describe("the import-boundary check (.dependency-cruiser.cjs)", () => {
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it("fails on each forbidden import, naming its rule", () => {
    const { code, output } = check({
      "src/gateway/server.ts": "export const server = 1;\n",
      "src/quote/createQuote.ts": 'import { server } from "../gateway/server.js";\nexport const q = server;\n',
      "jobs/fill.ts": 'import { keccak256 } from "viem";\nexport const f = keccak256;\n',
      "jobs/queues.ts": "export const queues = 1;\n",
      "schema/requests.ts": 'import { queues } from "../jobs/queues.js";\nexport const r = queues;\n',
      "src/domain/money.ts": 'import { r } from "../../schema/requests.js";\nexport const m = r;\n',
      "indexers/poller/startPoller.ts": 'import { queues } from "../../jobs/queues.js";\nexport const p = queues;\n',
      "indexers/bitcoin/writer.ts": 'import { r } from "../../schema/requests.js";\nexport const b = r;\n',
      "schema/requestDeposits.ts": "export const applied = 1;\n",
      "indexers/poller/apply.ts":
        'import { applied } from "../../schema/requestDeposits.js";\nexport const a = applied;\n',
      "devnet/bitcoin/esploraApp.ts": "export const esplora = 1;\n",
      "indexers/bitcoin/source.ts":
        'import { esplora } from "../../devnet/bitcoin/esploraApp.js";\nexport const s = esplora;\n',
      "web/src/App.tsx": 'import { m } from "../../src/domain/money.js";\nexport const App = () => <p>{m}</p>;\n',
      "src/quote/solverInventory.ts": 'import { queues } from "../../jobs/queues.js";\nexport const i = queues;\n',
      "src/chains/chainRegistry.ts":
        'import { esplora } from "../../indexers/bitcoin/source.js";\nexport const c = esplora;\n',
      "apps/cli.ts": "export const cli = 1;\n",
      "jobs/startWorker.ts": 'import { cli } from "../apps/cli.js";\nexport const w = cli;\n',
      "apps/runDev.ts": 'import { esplora } from "../devnet/bitcoin/esploraApp.js";\nexport const d = esplora;\n',
    });
    expect(code, output).not.toBe(0);
    for (const rule of [
      "nothing-imports-the-gateway: src/quote/createQuote.ts → src/gateway/server.ts",
      "chain-sdks-only-in-adapters: jobs/fill.ts",
      "schema-imports-no-jobs-or-gateway: schema/requests.ts → jobs/queues.ts",
      "domain-imports-nothing-of-ours: src/domain/money.ts → schema/requests.ts",
      "indexers-record-facts-only: indexers/poller/startPoller.ts → jobs/queues.ts",
      "indexers-record-facts-only: indexers/bitcoin/writer.ts → schema/requests.ts",
      "indexers-record-facts-only: indexers/poller/apply.ts → schema/requestDeposits.ts",
      "devnet-bitcoin-stays-devnet: indexers/bitcoin/source.ts → devnet/bitcoin/esploraApp.ts",
      "web-imports-nothing-of-ours: web/src/App.tsx → src/domain/money.ts",
      "src-imports-no-jobs-or-indexers: src/quote/solverInventory.ts → jobs/queues.ts",
      "src-imports-no-jobs-or-indexers: src/chains/chainRegistry.ts → indexers/bitcoin/source.ts",
      "nothing-imports-the-composition: jobs/startWorker.ts → apps/cli.ts",
      "devnet-bitcoin-stays-devnet: apps/runDev.ts → devnet/bitcoin/esploraApp.ts",
    ]) {
      expect(output).toContain(rule);
    }
  });

  it("passes the allowed directions: jobs → schema, an indexer → the fact writers, the adapter → its SDK, a composition root → the gateway, web → npm", () => {
    const { code, output } = check({
      "src/gateway/server.ts": "export const server = 1;\n",
      "apps/cli.ts": 'import { server } from "../src/gateway/server.js";\nexport const a = server;\n',
      "src/chains/evm/evmAdapter.ts": 'import { keccak256 } from "viem";\nexport const e = keccak256;\n',
      "schema/requests.ts": "export const r = 1;\n",
      "jobs/fill.ts": 'import { r } from "../schema/requests.js";\nexport const f = r;\n',
      "schema/chainFacts.ts": "export const insertDepositFacts = 1;\n",
      "indexers/poller/startPoller.ts":
        'import { insertDepositFacts } from "../../schema/chainFacts.js";\nexport const p = insertDepositFacts;\n',
      "devnet/bitcoin/esploraApp.ts": "export const esplora = 1;\n",
      "apps/families/bitcoinFactories.ts":
        'import { esplora } from "../../devnet/bitcoin/esploraApp.js";\nexport const d = esplora;\n',
      "scripts/buildWeb.ts": 'import { server } from "../src/gateway/server.js";\nexport const b = server;\n',
      "web/src/App.tsx": 'import { render } from "preact";\nexport const App = render;\n',
    });
    expect(code, output).toBe(0);
  });

  it("fails on a chain family importing schema/, and passes it the fill ledger port", () => {
    const port = "export type FillLedger = { recordBroadcastFailure(requestId: string): Promise<number> };\n";
    const failing = check({
      "schema/fillAttempts.ts": "export const recordBroadcastFailure = 1;\n",
      "src/chains/bitcoin/followBitcoinFill.ts":
        'import { recordBroadcastFailure } from "../../../schema/fillAttempts.js";\nexport const f = recordBroadcastFailure;\n',
    });
    expect(failing.code, failing.output).not.toBe(0);
    expect(failing.output).toContain(
      "chain-families-reach-postgres-through-ports: src/chains/bitcoin/followBitcoinFill.ts → schema/fillAttempts.ts",
    );
    const allowed = check({
      "src/chains/fillLedger.ts": port,
      "src/chains/bitcoin/followBitcoinFill.ts":
        'import type { FillLedger } from "../fillLedger.js";\nexport const f = (ledger: FillLedger) => ledger;\n',
      "schema/fillLedger.ts":
        'import type { FillLedger } from "../src/chains/fillLedger.js";\nexport const l = (ledger: FillLedger) => ledger;\n',
      "src/chains/bitcoin/followBitcoinFill.test.ts":
        'import { l } from "../../../schema/fillLedger.js";\nexport const t = l;\n',
    });
    expect(allowed.code, allowed.output).toBe(0);
  });

  it("fails on an import circle, type-only ones too, and passes the type moved to the module it belongs to", () => {
    const failing = check({
      "src/chains/adapter.ts":
        'import type { ChainConfig } from "./chainConfig.js";\nexport type VmFamily = { vmType: ChainConfig["vmType"] };\n',
      "src/chains/chainConfig.ts":
        'import type { VmFamily } from "./adapter.js";\nexport type ChainConfig = { vmType: string; codec: VmFamily };\n',
    });
    expect(failing.code, failing.output).not.toBe(0);
    expect(failing.output).toContain("no-circular: src/chains/adapter.ts");
    const allowed = check({
      "src/chains/vmFamily.ts": "export type VmFamily<V extends string = string> = { vmType: V };\n",
      "src/chains/adapter.ts":
        'import type { ChainConfig } from "./chainConfig.js";\nimport type { VmFamily } from "./vmFamily.js";\nexport type Port = VmFamily<ChainConfig["vmType"]>;\n',
      "src/chains/chainConfig.ts":
        'import type { VmFamily } from "./vmFamily.js";\nexport type ChainConfig = { vmType: string; codec: VmFamily };\n',
    });
    expect(allowed.code, allowed.output).toBe(0);
  });
});
