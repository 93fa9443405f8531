import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { type DevnetChains, startDevnetChains } from "../../devnet/startDevnetChains.js";
import { migrate } from "../../schema/migrate.js";
import { insertRequest } from "../../schema/requests.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import { createChainAvailability } from "../../src/chains/createChainAvailability.js";
import { createStatusBus } from "../../src/events/createStatusBus.js";
import { type GatewayServerDeps, startGatewayServer } from "../../src/gateway/server.js";
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

/**
 * The gateway server (REST, /graphql, websockets) over real HTTP, a fresh Postgres database and anvil chains, with an
 * in-process status bus; `extra` overrides server deps.
 */
export async function startRestApp(extra: Partial<GatewayServerDeps> = {}): Promise<RestAppStack> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "warn" });
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  await migrate(pool);
  const devnet = await startDevnetChains({ chainIds: [31338, 31339], blockTime: 0 });
  const registry = createChainRegistry(devnet.chains);
  const adapters = solverAdapters(devnet.chains, { evm: devnet.solver });
  const statusBus = createStatusBus();
  const server = await startGatewayServer({
    host: "127.0.0.1",
    port: 0,
    statusBus,
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
  return {
    url: server.url,
    pool,
    devnet,
    serverKey: randomBytes(32),
    async stop() {
      await server.close();
      await statusBus.close();
      await devnet.stop();
      await pool.end();
      await db.drop();
    },
  };
}
