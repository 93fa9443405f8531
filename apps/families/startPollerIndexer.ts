import type pg from "pg";
import type { PollerChain } from "../../indexers/startPollers.js";
import type { PollerHealth } from "../../indexers/poller/startPoller.js";
import { startPollers } from "../../indexers/startPollers.js";
import { recordIndexerHeads } from "../../indexers/recordIndexerHeads.js";
import { migrate } from "../../schema/migrate.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { Shutdown } from "../../src/runtime/shutdown.js";
import { createPool } from "../createPool.js";
import { logConnectionError } from "../logConnectionError.js";
import type { IndexerContext } from "./familyFactories.js";
import { pollerReadiness } from "./pollerReadiness.js";
import { observePollers } from "./observePollers.js";
import { createMetrics } from "../../src/metrics/createMetrics.js";
import { observePool } from "../../src/metrics/observePool.js";
import { databaseReadiness } from "../../src/health/databaseReadiness.js";
import { createReadinessProbe } from "../../src/health/readinessProbe.js";
import { startHealthServer } from "../../src/health/startHealthServer.js";

const POLLER_HEALTH_PORT = 4002;

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
  // Its own health port only as a role of its own: beside the other roles (npm start, tests) the gateway's cover it.
  const health = context.quiet ? undefined : await startPollerHealth(context, pool, pollers.health);
  logger.info({ chainIds: chains.map((chain) => chain.chainId) }, `${name.toLowerCase()} pollers started`);
  return async () => {
    await health?.close();
    await heads.close();
    await pollers.stop();
    await pool.end();
  };
}

/** The poller role's `/healthz`, `/readyz` and `/metrics` on HEALTH_PORT (default 4002). */
function startPollerHealth<C extends ChainConfig>(
  context: IndexerContext<C>,
  pool: pg.Pool,
  health: () => PollerHealth[],
) {
  const metrics = createMetrics("indexer", { processMetrics: true });
  observePool(metrics, pool);
  observePollers(metrics, health);
  return startHealthServer({
    host: context.config.HEALTH_HOST,
    port: context.config.HEALTH_PORT ?? POLLER_HEALTH_PORT,
    probe: createReadinessProbe([databaseReadiness(pool), ...pollerReadiness(health)], { logger: context.logger }),
    metrics: metrics.registry,
    logger: context.logger,
  });
}
