import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "indexers/evm/src/**", ".devnet/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Chains, Postgres and the indexer are real processes; two cores cannot run many files at once.
    fileParallelism: false,
  },
});
