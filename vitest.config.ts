import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // graphql has no exports map: Node loads its CommonJS build for the libraries (Pothos, yoga), Vite would give
  // our code the .mjs one, and graphql refuses objects from the other copy. One copy: the one Node resolves.
  resolve: { alias: [{ find: /^graphql$/, replacement: fileURLToPath(import.meta.resolve("graphql")) }] },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "indexers/evm/src/**", ".devnet/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Chains, Postgres and the indexer are real processes; two cores cannot run many files at once.
    fileParallelism: false,
  },
});
