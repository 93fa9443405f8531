import type pg from "pg";
import type { PollerChain } from "../../indexers/startPollers.js";
import { startPollers } from "../../indexers/startPollers.js";
import { recordIndexerHeads } from "../../indexers/recordIndexerHeads.js";
import { migrate } from "../../schema/migrate.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { Shutdown } from "../../src/runtime/shutdown.js";
import { createPool } from "../createPool.js";
import { logConnectionError } from "../logConnectionError.js";
import type { IndexerContext } from "./familyFactories.js";

/**
 * The indexer role of a family whose facts a poller reads (`crossfill indexer bitcoin`): one poller per chain of the
 * family, their heads recorded for the gateway; `name` names them in the log.
 */
export async function startPollerIndexer<C extends ChainConfig>(
  context: IndexerContext<C>,
  name: string,
  pollerChain: (chain: C, pool: pg.Pool) => PollerChain,
): Promise<Shutdown> {
  const { logger } = context;
  if (!context.chains.length) throw new Error(`the chains file has no ${name} chain (vmType ${context.vmType})`);
  const pool = createPool(context.databaseUrl, logConnectionError(logger, context.stopping), 2);
  await migrate(pool);
  const chains = context.chains.map((chain) => pollerChain(chain, pool));
  const pollers = startPollers({ pool, logger, chains });
  const heads = recordIndexerHeads(pool, pollers, logger);
  logger.info({ chainIds: chains.map((chain) => chain.chainId) }, `${name.toLowerCase()} pollers started`);
  return async () => {
    await heads.close();
    await pollers.stop();
    await pool.end();
  };
}
