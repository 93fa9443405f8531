import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const excluded = ["node_modules/**", "indexers/evm/src/**", ".devnet/**"];
// Files that start chains with the Ponder indexer and the service, a browser or an embedded Postgres: two at a time
// (they mostly wait on blocks and polls), after the unit files.
const flows = [
  "test/**/*.test.ts",
  "indexers/evm/startEvmIndexer.test.ts",
  "indexers/evm/startDepositWatcher.test.ts",
  "devnet/startEmbeddedPostgres.test.ts",
];

export default defineConfig({
  // graphql has no exports map: Node loads its CommonJS build for the libraries (Pothos, yoga), Vite would give
  // our code the .mjs one, and graphql refuses objects from the other copy. One copy: the one Node resolves.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(import.meta.resolve("graphql")) }] },
  test: {
    testTimeout: 60_000,
    // Above the indexer's own 120 s ready timeout: a stack that cannot start then fails with Ponder's output and
    // stops what it started, instead of the hook timing out and leaving its chains and Ponder running.
    hookTimeout: 180_000,
    // Two cores. Vitest sizes each pool once for every project: unit files in worker threads, two at a time; flows
    // in forks (a fresh process per file), two at a time; `sequence.groupOrder` runs the projects one after another.
    poolOptions: { threads: { minThreads: 1, maxThreads: 2 }, forks: { minForks: 1, maxForks: 2 } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: [...excluded, ...flows],
          pool: "threads",
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "flows",
          include: flows,
          exclude: excluded,
          pool: "forks",
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
