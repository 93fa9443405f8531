import { logConnectionError } from "./logConnectionError.js";
import { createMetrics } from "../src/metrics/createMetrics.js";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import { busyPorts } from "../devnet/busyPorts.js";
import { embeddedPostgresDataDir } from "../devnet/embeddedPostgresDataDir.js";
import { startEmbeddedPostgres } from "../devnet/startEmbeddedPostgres.js";
import type { ChainConfig } from "../src/chains/chainConfig.js";
import { type FamilyKeys, allFamilyFactories } from "./families/factories.js";
import { familyAdapters, roleAdapterKeys } from "./families/familyAdapters.js";
import { serveDevnetOrderSigner } from "./families/serveDevnetOrderSigner.js";
import type { DevnetStarter } from "./families/familyFactories.js";
import { startFamilyIndexers } from "./families/startFamilyIndexers.js";
import { createQueueBackend } from "../jobs/queueBackend.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { migrate } from "../schema/migrate.js";
import type { Config } from "../src/config.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { fundSponsor } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";

/** 10,000 USD of fee sponsorship for the devnet key's integrator. */
const DEVNET_SPONSOR_FUNDING_MICRO_USD = 10_000_000_000n;
import { restSettings } from "../src/gateway/restSettings.js";
import { webhookDeliveryLimits } from "../jobs/webhookDeliveryLimits.js";
import { apiKeyEncryptionKey, apiSettings, statusCacheSettings } from "../src/roleSettings.js";
import { configuredPriceSources, rolePrices } from "../src/rolePrices.js";
import { devnetPriceSettings } from "./devnetPriceSettings.js";
import { createConfiguredPriceSource } from "../src/pricing/createConfiguredPriceSource.js";
import { type DevnetHermes, startDevnetHermes } from "../devnet/prices/startDevnetHermes.js";
import { withDevnetPythFeeds } from "../devnet/prices/withDevnetPythFeeds.js";
import { createPool } from "./createPool.js";
import { type BannerChain, devnetBanner } from "./devnetBanner.js";
import type { z } from "zod";
import { devnetOperatorFields } from "./operatorDatabase.js";
import { startApi } from "../src/gateway/startApi.js";
import { startWorker } from "../jobs/startWorker.js";
import type { Shutdown } from "../src/runtime/shutdown.js";

/**
 * `npm start`: the whole service on local chains. Devnet chains are new on every start, so the embedded
 * database is recreated with them; with DATABASE_URL the app tables are kept and the indexer's schema
 * changes with the chains' genesis blocks.
 */
export async function runDev(config: Config, environmentKeys: FamilyKeys, logger: Logger): Promise<Shutdown> {
  const stops: Array<{ name: string; stop: () => Promise<unknown> }> = [];
  let stopping = false;
  const startedAt = performance.now();
  const shutdown = async () => {
    stopping = true;
    // Last started, first stopped: the API, the worker, the indexers, the chains, the price service, Postgres.
    for (const { name, stop } of stops.splice(0).reverse()) {
      await stop().then(
        () => process.stderr.write(`  ${name} stopped\n`),
        (error) => logger.error({ err: error }, `stopping ${name} failed`),
      );
    }
  };
  try {
    // Every fixed port first: a busy API port used to fail after the chains and the database were up (18 s).
    const busy = await busyPorts([
      { what: "the API", variable: "PORT", host: config.HOST, port: config.PORT },
      { what: "the indexer", variable: "INDEXER_PORT", host: "127.0.0.1", port: config.INDEXER_PORT },
      ...(config.DATABASE_URL
        ? []
        : [
            {
              what: "the embedded Postgres",
              variable: "DEVNET_POSTGRES_PORT",
              host: "127.0.0.1",
              port: config.DEVNET_POSTGRES_PORT,
            },
          ]),
    ]);
    if (busy.length > 0) throw new Error(`cannot start the devnet: ${busy.join("; ")}`);
    const dataDir = path.resolve(config.CROSSFILL_DATA_DIR);
    mkdirSync(dataDir, { recursive: true });

    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const postgresDir = await embeddedPostgresDataDir(dataDir);
      const postgres = await startEmbeddedPostgres({
        dataDir: postgresDir,
        port: config.DEVNET_POSTGRES_PORT,
        fresh: true,
      });
      stops.push({ name: "embedded postgres", stop: postgres.stop });
      databaseUrl = postgres.databaseUrl;
      logger.info({ port: config.DEVNET_POSTGRES_PORT, dataDir: postgresDir }, "embedded postgres started");
    }

    // Prices: the devnet's own Hermes (moving at random, moved by tests) and the aggregators the EVM devnet deploys and
    // feeds from it, unless PRICE_SOURCES/PRICES choose others.
    let hermes: DevnetHermes | undefined;
    if (!configuredPriceSources(config)) {
      hermes = await startDevnetHermes();
      stops.push({ name: "devnet hermes", stop: hermes.stop });
      logger.info({ hermesUrl: hermes.hermesUrl }, "devnet price service started");
    }

    // Each family's devnet, one after another; the keys they sign with are the roles' keys.
    const chains: ChainConfig[] = [];
    const manifestChains: unknown[] = [];
    const bannerChains: BannerChain[] = [];
    const manifestFields: Record<string, unknown> = {};
    const keys: Record<string, unknown> = {};
    for (const factories of allFamilyFactories()) {
      const start = factories.devnet as DevnetStarter<unknown>;
      const devnet = await start({
        config,
        keys: environmentKeys[factories.vmType],
        ...(hermes ? { priceBook: hermes.book } : {}),
      });
      stops.push({ name: `devnet ${factories.vmType}`, stop: devnet.stop });
      chains.push(...devnet.chains);
      manifestChains.push(...devnet.manifest.chains);
      bannerChains.push(
        ...devnet.manifest.chains.map((entry) => ({ ...(entry as BannerChain), label: factories.label })),
      );
      Object.assign(manifestFields, devnet.manifest.fields);
      keys[factories.vmType] = devnet.keys;
    }
    const devnetKeys = keys as FamilyKeys;

    // The chains file the service reads names each currency's Pyth feed (the devnet Hermes serves Pyth's ids).
    if (hermes) chains.splice(0, chains.length, ...withDevnetPythFeeds(chains));
    const pricesOfChain = new Map(chains.map((chain) => [chain.id, chain.prices]));
    const priceSettings = hermes
      ? devnetPriceSettings(config, hermes.hermesUrl, chains)
      : rolePrices(config, "dev", chains)!;
    const manifestPrices = hermes
      ? { hermesUrl: hermes.hermesUrl, maxAgeSeconds: config.PRICE_MAX_AGE_SECONDS }
      : undefined;

    const apiUrl = config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`;
    const manifest = {
      apiUrl,
      graphqlUrl: `${apiUrl}/graphql`,
      wsUrl: `${apiUrl.replace(/^http/, "ws")}/ws`,
      // The integrator dashboard (web/, beside the public explorer at /), served by the gateway; sign in with apiKey.
      dashboardUrl: `${apiUrl}/explorer/dashboard`,
      // Filled in below once the database is migrated: one key for trying the authenticated endpoints.
      apiKey: null as string | null,
      // For the operator commands run without DATABASE_URL (apps/operatorDatabase.ts); a user's own URL is not copied.
      ...({
        databaseUrl: config.DATABASE_URL ? null : databaseUrl,
        apiKeyEncryptionKey: config.API_KEY_ENCRYPTION_KEY ? "API_KEY_ENCRYPTION_KEY" : "devnet default",
      } satisfies z.input<typeof devnetOperatorFields>),
      ...manifestFields,
      ...(manifestPrices ? { prices: manifestPrices } : {}),
      chains: manifestChains.map((entry) => ({
        ...(entry as { id: number }),
        prices: pricesOfChain.get((entry as { id: number }).id),
      })),
    };
    const manifestPath = path.join(dataDir, "manifest.json");
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

    const pool = createPool(
      databaseUrl,
      logConnectionError(logger, () => stopping),
    );
    stops.push({ name: "database pool", stop: () => pool.end() });
    await migrate(pool);
    const devKey = await createApiKey(pool, apiKeyEncryptionKey(config, "dev"), {
      name: "devnet",
      integrator: "devnet",
      elevated: true,
      // The dashboard's sign-in key on the devnet: it may create and revoke keys of integrator devnet.
      managesKeys: true,
      // …and sponsor fees (subsidizeFees), which outside the devnet an operator grants (`crossfill sponsors allow`).
      sponsors: true,
    });
    manifest.apiKey = devKey.key;
    // The manifest key's integrator can sponsor fees (subsidizeFees) at once; `crossfill sponsors fund` adds more.
    await withTransaction(pool, (db) =>
      fundSponsor(db, {
        integrator: devKey.integrator,
        amountMicroUsd: DEVNET_SPONSOR_FUNDING_MICRO_USD,
        note: "devnet",
      }),
    );
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

    // Each family's indexer role, as `crossfill indexer <command>` runs it, over the manifest (the chains file here).
    const indexers = await startFamilyIndexers(chains, {
      config,
      chainsFile: manifestPath,
      databaseUrl,
      logger,
      quiet: true,
      stopping: () => stopping,
      // Ctrl-C signals the indexer as well as us, so it may exit before we stop it.
      onExit: ({ code, signal }) => {
        if (!stopping) logger.error({ code, signal }, "the indexer exited; restart npm start");
      },
    });
    stops.push({ name: "indexers", stop: indexers });

    // Worker and API share this process, so an in-process bus carries status changes unless Redis is configured.
    const statusBus = createStatusBus({
      redisUrl: config.REDIS_URL,
      onError: logConnectionError(logger, () => stopping),
    });
    stops.push({ name: "status bus", stop: () => statusBus.close() });
    const queues = createQueueBackend({
      databaseUrl,
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      // Ctrl-C reaches the embedded Postgres too, which may end these connections before they are closed.
      onError: logConnectionError(logger, () => stopping),
    });
    stops.push({ name: "queues", stop: () => queues.close() });
    // One registry for the process (role "dev"): the gateway's /metrics shows the worker's series too.
    const metrics = createMetrics("dev", { processMetrics: true });
    const workerAdapters = familyAdapters(chains, roleAdapterKeys(devnetKeys, "worker"), { pool });
    // Worker and API share this process, and so one price layer and its cache.
    const prices = createConfiguredPriceSource(priceSettings, { adapters: workerAdapters });
    const worker = await startWorker({
      pool,
      chains,
      metrics,
      adapters: workerAdapters,
      queues,
      // The views the EVM indexer publishes (its role passes ONCHAIN_SCHEMA to Ponder).
      onchainSchema: config.ONCHAIN_SCHEMA,
      logger,
      statusBus,
      prices,
      debugReferrers: true,
      fillConcurrency: config.FILL_CONCURRENCY,
      appFeeClaimRetry: {
        retryBaseMs: config.APP_FEE_CLAIM_RETRY_BASE_MS,
        maxAttempts: config.APP_FEE_CLAIM_MAX_ATTEMPTS,
      },
      // The devnet posts webhooks to local http receivers unless told otherwise.
      webhooks: {
        serverKey: apiKeyEncryptionKey(config, "dev"),
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE ?? true,
        retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
        limits: webhookDeliveryLimits(config),
      },
    });
    stops.push({ name: "worker", stop: worker.close });
    // The gateway signs orders as in production: through the worker's signer service, holding no key.
    const orderSigner = await serveDevnetOrderSigner(devnetKeys.evm, logger);
    stops.push({ name: "order signer", stop: orderSigner.close });
    const rest = restSettings(
      config,
      "dev",
      pool,
      logConnectionError(logger, () => stopping),
    );
    stops.push({ name: "rate limiter", stop: () => rest.rateLimiter.close() });
    const api = await startApi({
      pool,
      chains,
      adapters: familyAdapters(chains, roleAdapterKeys({ ...devnetKeys, evm: orderSigner.gatewayKeys }, "api"), {
        pool,
      }),
      logger,
      host: config.HOST,
      port: config.PORT,
      settings: apiSettings(config),
      prices,
      statusBus,
      rest,
      graphiql: true,
      webhooks: { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE ?? true },
      // this process's worker publishes on the same bus, in process or on Redis
      statusCache: statusCacheSettings(config, true),
      metrics,
    });
    stops.push({ name: "api", stop: api.close });

    process.stdout.write(
      devnetBanner({
        manifest,
        chains: bannerChains,
        manifestPath,
        queues: queues.kind,
        database: config.DATABASE_URL ? "from DATABASE_URL" : "embedded",
        startedInMs: performance.now() - startedAt,
      }),
    );
    return shutdown;
  } catch (error) {
    await shutdown();
    throw error;
  }
}
