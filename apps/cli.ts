import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { createLogger, scrubUrls } from "./createLogger.js";
import { createPool } from "./createPool.js";
import { isConnectionEnded } from "../src/runtime/isConnectionEnded.js";
import { logConnectionError } from "./logConnectionError.js";
import { startEvmIndexer } from "../indexers/evm/startEvmIndexer.js";
import { createQueueBackend } from "../jobs/queueBackend.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { migrate } from "../schema/migrate.js";
import { apiWorkers, parseConfig } from "../src/config.js";
import { runApiCluster } from "../src/gateway/runApiCluster.js";
import { runDev } from "./runDev.js";
import type { Shutdown } from "../src/runtime/shutdown.js";
import { restSettings } from "../src/gateway/restSettings.js";
import { rolePrices } from "../src/rolePrices.js";
import { webhookDeliveryLimits } from "../jobs/webhookDeliveryLimits.js";
import { runKeysCommand } from "./runKeysCommand.js";
import { runWebhooksCommand } from "./runWebhooksCommand.js";
import {
  apiKeyEncryptionKey,
  apiSettings,
  productionChains,
  requireSetting,
  solverAccount,
  statusCacheSettings,
} from "../src/roleSettings.js";
import { runChainsCommand } from "./runChainsCommand.js";
import { runSponsorsCommand } from "./runSponsorsCommand.js";
import { runRefundsCommand } from "./runRefundsCommand.js";
import { runAlertsCommand } from "./runAlertsCommand.js";
import { recordIndexerHeads } from "../indexers/recordIndexerHeads.js";
import { bitcoinPollerChains } from "../indexers/bitcoinPollerChains.js";
import { startPollers } from "../indexers/startPollers.js";
import { startDepositWatchers } from "../indexers/startDepositWatchers.js";
import { isBitcoinChain } from "../src/chains/bitcoin/bitcoinFamily.js";
import { isEvmChain } from "../src/chains/chainConfig.js";
import { startApi } from "../src/gateway/startApi.js";
import { startWorker } from "../jobs/startWorker.js";

const USAGE = `usage: crossfill <role>
  dev            the whole service on local devnet chains (npm start)
  api            the gateway (REST, GraphQL, websockets); --workers N processes on one port (default: one per core)
  worker         reconcile and solver fills
  indexer evm    the Ponder EVM indexer
  indexer bitcoin  the Esplora pollers of the chains file's Bitcoin chains
  migrate        apply database migrations and exit
  keys           create, list or revoke API keys (keys create --name N [--integrator I] [--elevated])
  webhooks       set or show a key's webhook endpoint (webhooks set --key ID --url URL [--header "N: v"]… [--disable])
  refunds        list, retry or settle refunds that need an operator, list unmatched Bitcoin deposits (crossfill refunds for details)
  alerts         list or resolve operator alerts: fills after a failure, reverted refunds and app-fee payouts
  sponsors       fund, withdraw or list integrators' fee sponsorship balances (sponsors fund <integrator> <usd>)
  chains         disable, enable or limit a chain's new quotes; list switches and heads (crossfill chains for details)`;

/** The composition root of every process: configuration is read here and nowhere else. */
async function main(argv: string[]): Promise<Shutdown | undefined> {
  const config = parseConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL);
  const role = argv[0];
  const databaseUrl = () => requireSetting(config.DATABASE_URL, "DATABASE_URL", `for crossfill ${role}`);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  // An operator's one-off command: a small pool on a migrated database, closed when it is done.
  const operatorCommand = async (run: (pool: ReturnType<typeof createPool>) => Promise<void>) => {
    const pool = createPool(databaseUrl(), logConnectionError(logger), 2);
    try {
      await migrate(pool);
      await run(pool);
    } finally {
      await pool.end();
    }
    return undefined;
  };
  switch (role) {
    case "dev":
      return runDev(config, logger);
    case "migrate": {
      const pool = createPool(databaseUrl(), logConnectionError(logger), 2);
      const applied = await migrate(pool);
      await pool.end();
      logger.info({ applied }, applied.length ? "migrations applied" : "database is up to date");
      return undefined;
    }
    case "keys":
      return operatorCommand(async (pool) => {
        print(await runKeysCommand(pool, apiKeyEncryptionKey(config, role), argv.slice(1)));
      });
    case "webhooks":
      return operatorCommand(async (pool) => {
        print(await runWebhooksCommand(pool, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE ?? false }, argv.slice(1)));
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
    case "api": {
      // Checked before anything starts, in the cluster's primary too.
      const settings = apiSettings(config, role);
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
      const api = await startApi({
        pool,
        chains: productionChains(config),
        solver: solverAccount(config),
        logger,
        host: config.HOST,
        port: config.PORT,
        settings,
        statusBus,
        rest,
        webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE ?? false },
        bitcoinDepositXpub: config.BITCOIN_DEPOSIT_XPUB,
        bitcoinMaxFeeRateSatVb: config.BITCOIN_MAX_FEE_RATE_SAT_VB,
        statusCache: statusCacheSettings(config, statusBus.kind === "redis"),
      });
      return async () => {
        await api.close();
        await rest.rateLimiter.close();
        await statusBus.close();
        await pool.end();
      };
    }
    case "worker": {
      const prices = rolePrices(config, role);
      const pool = createPool(databaseUrl(), logConnectionError(logger));
      await migrate(pool);
      const queues = createQueueBackend({
        databaseUrl: databaseUrl(),
        redisUrl: config.REDIS_URL,
        prefix: config.QUEUE_PREFIX,
        onError: logConnectionError(logger),
      });
      const statusBus = createStatusBus({ redisUrl: config.REDIS_URL, onError: logConnectionError(logger) });
      const worker = await startWorker({
        pool,
        chains: productionChains(config),
        solver: solverAccount(config),
        bitcoinDepositoryWif: config.BITCOIN_DEPOSITORY_WIF,
        bitcoinSolverWif: config.BITCOIN_SOLVER_WIF,
        bitcoinDepositXprv: config.BITCOIN_DEPOSIT_XPRV,
        bitcoinMaxFeeRateSatVb: config.BITCOIN_MAX_FEE_RATE_SAT_VB,
        queues,
        onchainSchema: config.ONCHAIN_SCHEMA,
        logger,
        statusBus,
        prices,
        fillConcurrency: config.FILL_CONCURRENCY,
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
      return async () => {
        await worker.close();
        await statusBus.close();
        await queues.close();
        await pool.end();
      };
    }
    case "indexer": {
      if (argv[1] === "bitcoin") {
        const configured = productionChains(config);
        if (!configured.some(isBitcoinChain)) throw new Error("the chains file has no Bitcoin chain (vmType bvm)");
        const pool = createPool(databaseUrl(), logConnectionError(logger), 2);
        await migrate(pool);
        const chains = bitcoinPollerChains(configured, pool);
        const pollers = startPollers({ pool, logger, chains });
        const heads = recordIndexerHeads(pool, pollers, logger);
        logger.info({ chainIds: chains.map((chain) => chain.chainId) }, "bitcoin pollers started");
        return async () => {
          await heads.close();
          await pollers.stop();
          await pool.end();
        };
      }
      if (argv[1] !== "evm") throw new Error(`unknown indexer ${argv[1] ?? "(none)"}; available: evm, bitcoin`);
      const indexer = await startEvmIndexer({
        databaseUrl: databaseUrl(),
        chainsFile: requireSetting(config.CROSSFILL_CHAINS_FILE, "CROSSFILL_CHAINS_FILE", "for the indexer"),
        port: config.INDEXER_PORT,
        viewsSchema: config.ONCHAIN_SCHEMA,
        onExit: ({ expected, code }) => {
          if (!expected) {
            logger.error({ code }, "ponder exited");
            process.exit(1);
          }
        },
      });
      logger.info({ schema: indexer.schema, viewsSchema: indexer.viewsSchema }, "indexer ready");
      const chains = productionChains(config);
      // One connection per head watcher, so one chain's deposits never wait for another's insert.
      const pool = createPool(databaseUrl(), logConnectionError(logger), 2 + chains.filter(isEvmChain).length);
      await migrate(pool);
      const heads = recordIndexerHeads(pool, indexer, logger);
      const watchers = config.EVM_DEPOSIT_WATCHER ? startDepositWatchers({ pool, logger, chains }) : undefined;
      return async () => {
        await watchers?.stop();
        await heads.close();
        await indexer.stop();
        await pool.end();
      };
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      process.exitCode = role ? 2 : 0;
      return undefined;
  }
}

main(process.argv.slice(2)).then(
  (shutdown) => {
    if (!shutdown) return;
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping…\n`);
      // A connection the database ends while everything closes is no failure; anything else still is.
      process.on("uncaughtException", (error) => {
        if (isConnectionEnded(error)) return;
        process.stderr.write(`${scrubUrls(String(error.stack ?? error))}\n`);
        process.exit(1);
      });
      shutdown().then(
        () => process.exit(0),
        (error) => {
          process.stderr.write(`shutdown failed: ${error}\n`);
          process.exit(1);
        },
      );
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
  },
  (error) => {
    // Written past the logger, so its URLs are cut here: a start-up RPC failure quotes the solver's keyed URL.
    process.stderr.write(`crossfill: ${scrubUrls(error instanceof Error ? error.message : String(error))}\n`);
    if (error instanceof Error && error.cause) process.stderr.write(`  cause: ${scrubUrls(String(error.cause))}\n`);
    process.exit(1);
  },
);
