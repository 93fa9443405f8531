import { type ServerType, serve } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { type DevnetChains, startDevnetChains } from "../../devnet/startDevnetChains.js";
import { migrate } from "../../schema/migrate.js";
import { insertRequest } from "../../schema/requests.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import { createChainAvailability } from "../../src/chains/createChainAvailability.js";
import { type RestAppDeps, createRestApp } from "../../src/gateway/createRestApp.js";
import { createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { createSolverInventory } from "../../src/quote/solverInventory.js";
import { solverAdapters } from "../../src/roles/solverAdapters.js";
import { createTestDatabase } from "./testDatabase.js";

export type RestAppStack = {
  url: string;
  pool: pg.Pool;
  devnet: DevnetChains;
  serverKey: Buffer;
  stop(): Promise<void>;
};

/** The REST app alone over real HTTP, a fresh Postgres database and anvil chains; `extra` overrides app deps. */
export async function startRestApp(extra: Partial<RestAppDeps> = {}): Promise<RestAppStack> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "warn" });
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  await migrate(pool);
  const devnet = await startDevnetChains({ chainIds: [31338, 31339], blockTime: 0 });
  const registry = createChainRegistry(devnet.chains);
  const adapters = solverAdapters(devnet.chains, { evm: devnet.solver });
  const app = createRestApp({
    pool,
    registry,
    adapters,
    logger,
    quoteEngine: {
      registry,
      adapters,
      prices: createStaticPriceSource({ ETH: "3000", WETH: "3000", USDC: "1" }),
      inventory: createSolverInventory(adapters),
      saveRequest: (request) => insertRequest(pool, request),
      settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
      availability: createChainAvailability(pool),
    },
    ...extra,
  });
  const server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    pool,
    devnet,
    serverKey: randomBytes(32),
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await devnet.stop();
      await pool.end();
      await db.drop();
    },
  };
}
