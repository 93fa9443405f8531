import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { evmFactories } from "../../apps/families/evmFactories.js";
import type { DevnetChains } from "../../devnet/startDevnetChains.js";
import { startFamilyDevnet, testDevnetConfig } from "./startFamilyDevnet.js";
import { migrate } from "../../schema/migrate.js";
import { insertRequest } from "../../schema/requests.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { createStatusBus } from "../../src/events/createStatusBus.js";
import { type GatewayServerDeps, startGatewayServer } from "../../src/gateway/server.js";
import { createTestQuoteEngine } from "./createTestGraphqlServer.js";
import { createTestDatabase } from "./testDatabase.js";
import type { PriceSource } from "../../src/pricing/priceSource.js";
import { testRouteLimits } from "./testRateLimits.js";

export type RestAppStack = {
  url: string;
  pool: pg.Pool;
  devnet: DevnetChains;
  serverKey: Buffer;
  stop(): Promise<void>;
};

/**
 * The gateway server (REST, /graphql, websockets) over real HTTP, a fresh Postgres database and anvil chains, with an
 * in-process status bus; `extra` overrides server deps, `options.chains` the chains it serves (the devnet's),
 * `options.prices` its price layer (static test prices).
 */
export async function startRestApp(
  extra: Partial<GatewayServerDeps> = {},
  options: { chains?: (devnet: DevnetChains) => readonly ChainConfig[]; prices?: PriceSource } = {},
): Promise<RestAppStack> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "warn" });
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  await migrate(pool);
  const { devnet } = await startFamilyDevnet(
    evmFactories,
    testDevnetConfig({ DEVNET_CHAIN_IDS: "31338,31339", DEVNET_BLOCK_TIME: "0" }),
  );
  const { registry, adapters, quoteEngine } = createTestQuoteEngine(pool, {
    chains: options.chains?.(devnet) ?? devnet.chains,
    solver: devnet.solver,
    saveRequest: (request) => insertRequest(pool, request),
    ...(options.prices ? { prices: options.prices } : {}),
  });
  const statusBus = createStatusBus();
  const server = await startGatewayServer({
    host: "127.0.0.1",
    port: 0,
    statusBus,
    pool,
    registry,
    adapters,
    logger,
    quoteEngine,
    routeLimits: testRouteLimits(),
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
