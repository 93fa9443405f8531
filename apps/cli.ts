import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { createLogger, scrubUrls } from "./createLogger.js";
import { createPool } from "./createPool.js";
import { isConnectionEnded } from "../src/runtime/isConnectionEnded.js";
import { logConnectionError } from "./logConnectionError.js";
import { createQueueBackend } from "../jobs/queueBackend.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { migrate } from "../schema/migrate.js";
import { type Config, apiWorkers, parseConfig, parseFamilyKeys } from "../src/config.js";
import { runApiCluster } from "../src/gateway/runApiCluster.js";
import { runDev } from "./runDev.js";
import type { Shutdown } from "../src/runtime/shutdown.js";
import { chainsOfFamily } from "../src/chains/familyOfChain.js";
import { restSettings } from "../src/gateway/restSettings.js";
import { rolePrices } from "../src/rolePrices.js";
import { createConfiguredPriceSource } from "../src/pricing/createConfiguredPriceSource.js";
import { webhookDeliveryLimits } from "../jobs/webhookDeliveryLimits.js";
import { runKeysCommand } from "./runKeysCommand.js";
import { operatorDatabase } from "./operatorDatabase.js";
import { runWebhooksCommand } from "./runWebhooksCommand.js";
import {
  apiKeyEncryptionKey,
  apiSettings,
  productionChains,
  requireSetting,
  statusCacheSettings,
} from "../src/roleSettings.js";
import { runChainsCommand } from "./runChainsCommand.js";
import { runSponsorsCommand } from "./runSponsorsCommand.js";
import { runRefundsCommand } from "./runRefundsCommand.js";
import { runAlertsCommand } from "./runAlertsCommand.js";
import { runSolverCommand } from "./runSolverCommand.js";
import { FAMILY_KEY_SCHEMAS, allFamilyFactories } from "./families/factories.js";
import { familyAdapters, roleAdapterKeys } from "./families/familyAdapters.js";
import { startApi } from "../src/gateway/startApi.js";
import { startWorker } from "../jobs/startWorker.js";
import { chainReadiness } from "../src/health/chainReadiness.js";
import { databaseReadiness } from "../src/health/databaseReadiness.js";
import { createReadinessProbe } from "../src/health/readinessProbe.js";
import { createRedisReadiness } from "../src/health/redisReadiness.js";
import { startHealthServer } from "../src/health/startHealthServer.js";
import { createMetrics } from "../src/metrics/createMetrics.js";
import { observeChainHeads } from "../src/metrics/observeChainHeads.js";
import { observePool } from "../src/metrics/observePool.js";
import { observeQueues } from "../src/metrics/observeQueues.js";
import { observeSolverLowBalances } from "../src/metrics/observeSolverLowBalances.js";
import { listChainHeads } from "../schema/chainHeads.js";
import { observedQueueBackend } from "../jobs/observedQueueBackend.js";
import { stopOnSignals } from "./stopOnSignals.js";
import { stopSteps } from "./stopSteps.js";
import { refuseRoleKeys } from "./refuseRoleKeys.js";
import { startOrderSignerServer } from "../src/chains/evm/startOrderSignerServer.js";

const WORKER_HEALTH_PORT = 4001;

const indexerCommands = allFamilyFactories().map(({ indexer }) => indexer);

const USAGE = `usage: crossfill <role>
  dev            the whole service on local devnet chains (npm start)
  api            the gateway (REST, GraphQL, websockets); --workers N processes on one port (default: one per core)
  worker         reconcile and solver fills
${indexerCommands.map(({ command, description }) => `  indexer ${command.padEnd(6)} ${description}`).join("\n")}
  migrate        apply database migrations and exit
  keys           create, list or revoke API keys, set their oracle pricing (keys create --name N [--integrator I])
  webhooks       set or show a key's webhook endpoint (webhooks set --key ID --url URL [--header "N: v"]… [--disable])
  refunds        list, retry or settle refunds that need an operator, list unmatched Bitcoin deposits (crossfill refunds for details)
  alerts         list or resolve operator alerts: fills after a failure, reverted refunds and app-fee payouts
  sponsors       fund, withdraw or list integrators' fee sponsorship balances (sponsors fund <integrator> <usd>)
  solver         solver balances: each chain's and currency's balance, what paid requests owe of it, what is left
  chains         disable, enable or limit a chain's new quotes; list switches and heads (crossfill chains for details)`;

/** The composition root of every process: configuration is read here and nowhere else. */
async function main(argv: string[], config: Config): Promise<Shutdown | undefined> {
  const keys = parseFamilyKeys(process.env, FAMILY_KEY_SCHEMAS);
  const logger = createLogger(config.LOG_LEVEL);
  const role = argv[0];
  const databaseUrl = () => requireSetting(config.DATABASE_URL, "DATABASE_URL", `for crossfill ${role}`);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  // An operator's one-off command: a small pool on a migrated database, closed when it is done.
  // Without DATABASE_URL, the devnet's database (through its manifest): `npm start`, then `npx crossfill keys list`.
  const operator = () => operatorDatabase(config, role);
  const operatorCommand = async (run: (pool: ReturnType<typeof createPool>) => Promise<void>) => {
    const { databaseUrl, manifestPath } = operator();
    const pool = createPool(databaseUrl, logConnectionError(logger), 2);
    try {
      await migrate(pool).catch((error: NodeJS.ErrnoException) => {
        if (manifestPath && error.code === "ECONNREFUSED")
          throw new Error(`the devnet of ${manifestPath} does not answer: is npm start running?`, { cause: error });
        throw error;
      });
      await run(pool);
    } finally {
      await pool.end();
    }
    return undefined;
  };
  switch (role) {
    case "dev":
      return runDev(config, keys, logger);
    case "migrate": {
      const pool = createPool(databaseUrl(), logConnectionError(logger), 2);
      const applied = await migrate(pool);
      await pool.end();
      logger.info({ applied }, applied.length ? "migrations applied" : "database is up to date");
      return undefined;
    }
    case "keys":
      return operatorCommand(async (pool) => {
        print(await runKeysCommand(pool, operator().encryptionKey(), argv.slice(1)));
      });
    case "webhooks":
      return operatorCommand(async (pool) => {
        // The devnet's own webhooks go to local receivers (as npm start allows), a deployment's do not.
        const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE ?? operator().manifestPath !== undefined;
        print(await runWebhooksCommand(pool, { allowPrivate }, argv.slice(1)));
      });
    case "chains":
      return operatorCommand(async (pool) => {
        process.exitCode = await runChainsCommand(pool, argv.slice(1), print);
      });
    case "refunds":
      return operatorCommand(async (pool) => {
        process.exitCode = await runRefundsCommand(pool, argv.slice(1), print);
      });
    case "alerts":
      return operatorCommand(async (pool) => {
        process.exitCode = await runAlertsCommand(pool, argv.slice(1), print);
      });
    case "sponsors":
      return operatorCommand(async (pool) => {
        process.exitCode = await runSponsorsCommand(pool, argv.slice(1), print);
      });
    case "solver":
      return operatorCommand(async (pool) => {
        process.exitCode = await runSolverCommand(pool, argv.slice(1), print);
      });
    case "api": {
      // Checked before anything starts, in the cluster's primary too.
      refuseRoleKeys(keys, "api");
      const settings = apiSettings(config);
      // Refuses to start without prices (rolePrices), in the cluster's primary too; each process has its own layer.
      const priceSettings = rolePrices(config, role, productionChains(config))!;
      const workers = apiWorkers(argv.slice(1), config, availableParallelism());
      if (cluster.isPrimary && workers > 1) {
        // Migrated once here, before the workers start, instead of N times at once.
        const pool = createPool(databaseUrl(), logConnectionError(logger), 2);
        await migrate(pool);
        await pool.end();
        return runApiCluster({ workers, semiSpaceMb: config.API_WORKER_SEMI_SPACE_MB, logger });
      }
      const pool = createPool(databaseUrl(), logConnectionError(logger));
      await migrate(pool);
      const statusBus = createStatusBus({ redisUrl: config.REDIS_URL, onError: logConnectionError(logger) });
      if (!config.REDIS_URL)
        logger.warn(
          "REDIS_URL is not set: the websocket feed and GraphQL subscriptions get no status changes from workers",
        );
      const rest = restSettings(config, role, pool, logConnectionError(logger));
      const redisReady = config.REDIS_URL ? createRedisReadiness(config.REDIS_URL) : undefined;
      const metrics = createMetrics("api", { processMetrics: true });
      observePool(metrics, pool);
      const chains = productionChains(config);
      if (!keys.evm.orderSignerUrl)
        logger.warn(
          "ORDER_SIGNER_URL is not set: quotes to EVM chains with includeProtocolData are refused (no orderSignature)",
        );
      const adapters = familyAdapters(chains, roleAdapterKeys(keys, "api"), { pool });
      const api = await startApi({
        pool,
        chains,
        adapters,
        logger,
        host: config.HOST,
        port: config.PORT,
        settings,
        prices: createConfiguredPriceSource(priceSettings, { adapters }),
        statusBus,
        rest,
        webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE ?? false },
        statusCache: statusCacheSettings(config, statusBus.kind === "redis"),
        readinessChecks: redisReady ? [redisReady] : [],
        metrics,
      });
      return stopSteps([
        ["the gateway", () => api.close()],
        ["the Redis readiness check", () => redisReady?.close()],
        ["the rate limiter", () => rest.rateLimiter.close()],
        ["the status bus", () => statusBus.close()],
        ["the Postgres pool", () => pool.end()],
      ]);
    }
    case "worker": {
      // Refuses to start without prices before anything starts; the aggregators are read through the adapters.
      const priceSettings = rolePrices(config, role, productionChains(config))!;
      const pool = createPool(databaseUrl(), logConnectionError(logger));
      await migrate(pool);
      const metrics = createMetrics("worker", { processMetrics: true });
      observePool(metrics, pool);
      observeChainHeads(metrics, () => listChainHeads(pool));
      observeSolverLowBalances(metrics, config.SOLVER_LOW_BALANCES ?? {});
      const queues = observedQueueBackend(
        createQueueBackend({
          databaseUrl: databaseUrl(),
          redisUrl: config.REDIS_URL,
          prefix: config.QUEUE_PREFIX,
          onError: logConnectionError(logger),
        }),
        observeQueues(metrics),
      );
      const statusBus = createStatusBus({ redisUrl: config.REDIS_URL, onError: logConnectionError(logger) });
      const chains = productionChains(config);
      const workerKeys = roleAdapterKeys(keys, "worker");
      const adapters = familyAdapters(chains, workerKeys, { pool });
      const prices = createConfiguredPriceSource(priceSettings, { adapters });
      const worker = await startWorker({
        pool,
        chains,
        adapters,
        queues,
        onchainSchema: config.ONCHAIN_SCHEMA,
        logger,
        statusBus,
        prices,
        fillConcurrency: config.FILL_CONCURRENCY,
        metrics,
        appFeeClaimRetry: {
          retryBaseMs: config.APP_FEE_CLAIM_RETRY_BASE_MS,
          maxAttempts: config.APP_FEE_CLAIM_MAX_ATTEMPTS,
        },
        // Webhooks are signed with the API keys, sealed under this server key: without it, none are sent.
        webhooks: config.API_KEY_ENCRYPTION_KEY
          ? {
              serverKey: config.API_KEY_ENCRYPTION_KEY,
              allowPrivate: config.WEBHOOK_ALLOW_PRIVATE ?? false,
              retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
              limits: webhookDeliveryLimits(config),
            }
          : undefined,
      });
      if (!config.API_KEY_ENCRYPTION_KEY) logger.warn("API_KEY_ENCRYPTION_KEY is not set: no webhooks are delivered");
      const redisReady = config.REDIS_URL ? createRedisReadiness(config.REDIS_URL) : undefined;
      // The gateways' order signatures (ORDER_SIGNER_URL): signed here, where the solver's key is.
      const solver = keys.evm.orderSignerToken ? workerKeys.evm?.solver : undefined;
      const orderSigner = solver
        ? await startOrderSignerServer({
            solver,
            token: keys.evm.orderSignerToken!,
            host: config.ORDER_SIGNER_HOST,
            port: config.ORDER_SIGNER_PORT,
            logger,
          })
        : undefined;
      const health = await startHealthServer({
        host: config.HEALTH_HOST,
        port: config.HEALTH_PORT ?? WORKER_HEALTH_PORT,
        probe: createReadinessProbe(
          [databaseReadiness(pool), ...(redisReady ? [redisReady] : []), ...chainReadiness(adapters)],
          { logger },
        ),
        metrics: metrics.registry,
        logger,
      });
      return stopSteps([
        ["the health server", () => health.close()],
        ["the order signer", () => orderSigner?.close()],
        ["the Redis readiness check", () => redisReady?.close()],
        ["the worker's jobs", () => worker.close()],
        ["the status bus", () => statusBus.close()],
        ["the queues", () => queues.close()],
        ["the Postgres pool", () => pool.end()],
      ]);
    }
    case "indexer": {
      refuseRoleKeys(keys, "indexer");
      const factories = allFamilyFactories().find(({ indexer }) => indexer.command === argv[1]);
      if (!factories)
        throw new Error(
          `unknown indexer ${argv[1] ?? "(none)"}; available: ${indexerCommands.map(({ command }) => command).join(", ")}`,
        );
      const { vmType } = factories;
      return factories.indexer.start({
        vmType,
        config,
        chains: chainsOfFamily(productionChains(config), vmType),
        chainsFile: requireSetting(config.CROSSFILL_CHAINS_FILE, "CROSSFILL_CHAINS_FILE", "for the indexer"),
        databaseUrl: databaseUrl(),
        logger,
        // The role is its indexer: without it, it exits for its supervisor to restart it.
        onExit: ({ code, signal }) => {
          logger.error({ code, signal }, "the indexer exited");
          process.exit(1);
        },
      });
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      process.exitCode = role ? 2 : 0;
      return undefined;
  }
}

const start = async () => {
  const config = parseConfig(process.env);
  return { config, shutdown: await main(process.argv.slice(2), config) };
};

start().then(
  ({ config, shutdown }) => {
    if (!shutdown) return;
    stopOnSignals(shutdown, {
      deadlineMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
      process: {
        on: (signal, listener) => process.on(signal, listener),
        exit: (code) => process.exit(code),
        write: (text) => process.stderr.write(text),
      },
      // A connection the database ends while everything closes is no failure; anything else still is.
      beforeStop: () =>
        process.on("uncaughtException", (error) => {
          if (isConnectionEnded(error)) return;
          process.stderr.write(`${scrubUrls(String(error.stack ?? error))}\n`);
          process.exit(1);
        }),
    });
  },
  (error) => {
    // Written past the logger, so its URLs are cut here: a start-up RPC failure quotes the solver's keyed URL.
    process.stderr.write(`crossfill: ${scrubUrls(error instanceof Error ? error.message : String(error))}\n`);
    if (error instanceof Error && error.cause) process.stderr.write(`  cause: ${scrubUrls(String(error.cause))}\n`);
    process.exit(1);
  },
);
