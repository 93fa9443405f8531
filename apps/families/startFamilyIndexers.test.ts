import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/support/testDatabase.js";
import { testEvmChain } from "../../test/support/testEvmChain.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { parseConfig } from "../../src/config.js";
import { startFamilyIndexers } from "./startFamilyIndexers.js";

const logger = pino({ level: "silent" });
const context = (databaseUrl: string) => ({
  config: parseConfig({}),
  // Ponder would read it; no EVM chain is given, so no Ponder starts.
  chainsFile: "/nonexistent/chains.json",
  databaseUrl,
  logger,
  onExit: () => undefined,
});

describe("startFamilyIndexers", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase("crossfill_famidx");
  });
  afterAll(async () => db?.drop());

  it("starts the indexer role of each family with chains only, which stops what it started", async () => {
    const stop = await startFamilyIndexers([TEST_BITCOIN_CHAIN], context(db.url));
    // The Bitcoin role migrated the database and runs its pollers on its own connections.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const running = async () =>
        (
          await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
          )
        ).rows[0]!.n;
      expect((await client.query("SELECT to_regclass('crossfill.chain_heads') AS t")).rows[0].t).not.toBeNull();
      await stop();
      await expect.poll(running).toBe(0);
    } finally {
      await client.end();
    }
  });

  it("fails when a family's role cannot start (EVM's Ponder without its chains file)", async () => {
    await expect(startFamilyIndexers([testEvmChain(31337), TEST_BITCOIN_CHAIN], context(db.url))).rejects.toThrow(
      /chains\.json/,
    );
  });
});
