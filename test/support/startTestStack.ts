import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { bitcoinFactories } from "../../apps/families/bitcoinFactories.js";
import { evmFactories } from "../../apps/families/evmFactories.js";
import { hypevmFactories } from "../../apps/families/hypevmFactories.js";
import { svmFactories } from "../../apps/families/svmFactories.js";
import {
  type AnyFamilyFactories,
  FAMILY_KEY_SCHEMAS,
  type FamilyKeys,
  allFamilyFactories,
} from "../../apps/families/factories.js";
import { familyAdapters, roleAdapterKeys } from "../../apps/families/familyAdapters.js";
import type { FamilyFactories, StartedDevnet } from "../../apps/families/familyFactories.js";
import { startFamilyIndexers } from "../../apps/families/startFamilyIndexers.js";
import { serveDevnetOrderSigner } from "../../apps/families/serveDevnetOrderSigner.js";
import type { DevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";
import type { DevnetChains } from "../../devnet/startDevnetChains.js";
import type { DevnetSolana } from "../../devnet/svm/startDevnetSolana.js";
import type { SvmChainConfig } from "../../src/chains/svm/svmChainFamily.js";
import { createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { createConfiguredPriceSource } from "../../src/pricing/createConfiguredPriceSource.js";
import type { ChainAdapters } from "../../src/chains/chainAdapters.js";
import { devnetPriceSettings } from "../../apps/devnetPriceSettings.js";
import { type DevnetHermes, startDevnetHermes } from "../../devnet/prices/startDevnetHermes.js";
import { withDevnetPythFeeds } from "../../devnet/prices/withDevnetPythFeeds.js";
import { portRunBelowEphemeralRange } from "./portRunBelowEphemeralRange.js";
import { type QueueBackend, createQueueBackend } from "../../jobs/queueBackend.js";
import { migrate } from "../../schema/migrate.js";
import { createStatusBus } from "../../src/events/createStatusBus.js";
import { type RunningApi, startApi } from "../../src/gateway/startApi.js";
import { type RunningWorker, startWorker } from "../../jobs/startWorker.js";
import type { Metrics } from "../../src/metrics/createMetrics.js";
import { type BitcoinChainConfig, type ChainConfig, bitcoinChainConfigSchema } from "../../src/chains/chainConfig.js";
import type { StuckFillPolicy } from "../../src/chains/adapter.js";
import { parseFamilyKeys } from "../../src/config.js";
import type { ConfirmationTier } from "../../src/domain/requiredConfirmations.js";
import type { AppFeeClaimRetryPolicy } from "../../jobs/createAppFeeClaimPayoutProcessor.js";
import { type EsploraProxy, startEsploraProxy } from "./startEsploraProxy.js";
import { startFamilyDevnet, testDevnetConfig } from "./startFamilyDevnet.js";
import { createTestDatabase } from "./testDatabase.js";
import { testRouteLimits } from "./testRateLimits.js";

export type TestStack = {
  devnet: DevnetChains;
  /** With `bitcoin: true`: the devnet Bitcoin (mined on demand) and its chain as the service sees it. */
  bitcoin?: { devnet: DevnetBitcoin; chain: BitcoinChainConfig; proxy?: EsploraProxy };
  /** With `livePrices: true`: the devnet Hermes the stack's prices come from (its book moves them, freezes them). */
  hermes?: DevnetHermes;
  /** With `solana: true`: the devnet Solana (slots every 50 ms, `advance`) and its chain as the service sees it. */
  solana?: { devnet: DevnetSolana; chain: SvmChainConfig };
  /** Seals API keys' webhook secrets: create keys with it for the worker to sign their webhooks. */
  serverKey: Buffer;
  /** The stack's own database, for connections of a test's own (the pool is the service's). */
  databaseUrl: string;
  pool: pg.Pool;
  api: RunningApi;
  queues: QueueBackend;
  /** Where the indexer publishes its views (with the pipeline). */
  onchainSchema?: string;
  /**
   * Stops every family's indexer role (Ponder, the head watcher, the pollers) and leaves the rest running: what the
   * chains do from then on is seen only through POST /transactions/index. A no-op without the pipeline.
   */
  stopIndexers(): Promise<void>;
  /** The devnet handle of a family the stack composes (`families`), undefined when its devnet was not started. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any family's, typed by its devnet handle
  devnetOf<D>(factories: FamilyFactories<any, any, any, D>): D | undefined;
  stop(): Promise<void>;
};

export const TEST_PRICES = { ETH: "3000", WETH: "3000", USDC: "1", BTC: "60000", HYPE: "40", SOL: "150" };
/** The same prices as the `PRICES` variable of a role started as its own process (`crossfill api`, `worker`). */
export const TEST_PRICES_ENV = Object.entries(TEST_PRICES)
  .map(([symbol, usd]) => `${symbol}=${usd}`)
  .join(",");

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The whole service on real local parts, composed as npm start composes it (apps/runDev.ts): each family's devnet
 * started by its devnet starter (anvil chains; the devnet Bitcoin with `bitcoin: true`), a fresh Postgres database,
 * each family's indexer role (Ponder and its head watcher, the Bitcoin pollers), BullMQ (Redis unless
 * `queue: "postgres"` or TEST_QUEUE=postgres), the worker and the HTTP API; `pipeline: false` leaves out the
 * indexers and the worker, for tests of the API alone.
 */
export async function startTestStack(
  options: {
    chainIds?: number[];
    blockTime?: number;
    queue?: "redis" | "postgres";
    pipeline?: boolean;
    /** With the pipeline, the EVM head watcher beside Ponder (on by default, as in production); false: Ponder alone. */
    depositWatcher?: boolean;
    confirmations?: ConfirmationTier[];
    /** The first webhook retry's delay (production: 1 min); tests of retries shrink it. */
    webhookRetryBaseMs?: number;
    /** Retries of app fee claims the Depository cannot cover (production: 10 s doubling, 10 attempts). */
    appFeeClaimRetry?: AppFeeClaimRetryPolicy;
    stuckFill?: StuckFillPolicy;
    /**
     * The API's chains get `<explorerUrl>/<chain id>` as explorerUrl (the devnet has no explorer), or what the function
     * answers for each: for link tests.
     */
    explorerUrl?: string | ((chain: ChainConfig) => string);
    /** Serve status lookups from the gateway's cache without a worker (on by default with one). */
    statusCache?: boolean;
    /**
     * Adds the devnet Bitcoin, mined on demand (`stack.bitcoin.devnet.mine()`), and its poller. Its chain keeps a
     * 1 s block time, so a fill waiting for confirmations looks again every second.
     */
    bitcoin?: boolean;
    /** The worker's prices when they differ from the API's (TEST_PRICES): prices moved since the quote. */
    workerPrices?: Record<string, string>;
    /** The service reads the devnet Bitcoin through an Esplora proxy whose broadcasts can fail (`stack.bitcoin.proxy`). */
    bitcoinProxy?: boolean;
    /** The Bitcoin chain's `refundUnmatchedAfterBlocks` (its default is a day of blocks). */
    bitcoinRefundUnmatchedAfterBlocks?: number;
    /** Adds the devnet Solana (its devnet starter, a slot every 50 ms) and its poller. */
    solana?: boolean;
    /** The Solana chain's `refundUnmatchedAfterBlocks`, in slots (its default is a day of slots). */
    solanaRefundUnmatchedAfterBlocks?: number;
    /** Adds the devnet perps exchange (chain 1337, its devnet starter) and its poller: `stack.devnetOf(hypevmFactories)`. */
    exchange?: boolean;
    /** The exchange's `refundUnmatchedAfterBlocks` (seconds of its ledger; its default is an hour). */
    exchangeRefundUnmatchedAfterBlocks?: number;
    /** The API's RATE_LIMITS (default TEST_RATE_LIMITS: the routes flows hammer are not counted). */
    rateLimits?: string;
    /**
     * The families the stack composes (default: every family of FAMILY_FACTORIES, Bitcoin's devnet only with
     * `bitcoin: true`). A test registers a family of its own beside them in one line:
     * `families: [...allFamilyFactories(), testFamilyFactories]`.
     */
    families?: readonly AnyFamilyFactories[];
    /** Prices beside TEST_PRICES (API and worker), e.g. a test family's native currency. */
    prices?: Record<string, string>;
    /**
     * Live prices as npm start has them instead of the static TEST_PRICES: the devnet Hermes (`stack.hermes`, not
     * walking) first, the EVM devnet's aggregators fed from it second, the chains naming their feeds; with the layer's
     * PRICE_MAX_AGE_SECONDS and PRICE_REFRESH_MS when given.
     */
    livePrices?: { maxAgeSeconds?: number; refreshMs?: number };
    /** The worker's and the API's Prometheus registries (createMetrics), for tests that read what they observed. */
    metrics?: { worker?: Metrics; api?: Metrics };
    /** The API's clock of rate windows and the v2 retirement: a date before the sunset lets a test read v2. */
    apiNow?: () => Date;
  } = {},
): Promise<TestStack> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "warn" });
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse())
      await step().catch((error) => logger.error({ err: error }, "stop failed"));
  };
  try {
    const db = await createTestDatabase();
    stops.push(() => db.drop());
    // The settings npm start reads, but every devnet on free ports and Bitcoin mined on demand.
    const config = testDevnetConfig({
      DEVNET_CHAIN_IDS: (options.chainIds ?? [31338, 31339]).join(","),
      DEVNET_BLOCK_TIME: String(options.blockTime ?? 1),
      INDEXER_PORT: String(await portRunBelowEphemeralRange()),
      EVM_DEPOSIT_WATCHER: String(options.depositWatcher ?? true),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "warn",
      DEVNET_SOLANA_SLOT_MS: "50",
      ...(options.livePrices?.maxAgeSeconds ? { PRICE_MAX_AGE_SECONDS: String(options.livePrices.maxAgeSeconds) } : {}),
      ...(options.livePrices?.refreshMs ? { PRICE_REFRESH_MS: String(options.livePrices.refreshMs) } : {}),
    });
    const hermes = options.livePrices ? await startDevnetHermes({ walkBps: 0 }) : undefined;
    if (hermes) stops.push(() => hermes.stop());
    const startDevnet = async <K, D>(factories: FamilyFactories<ChainConfig, K, unknown, D>) => {
      const started = await startFamilyDevnet(factories, config, hermes?.book);
      stops.push(() => started.stop());
      return started;
    };
    const evm = await startDevnet(evmFactories);
    const devnet = evm.devnet;
    const confirmations = options.confirmations;
    const evmChains = confirmations ? evm.chains.map((chain) => ({ ...chain, confirmations })) : evm.chains;
    let bitcoin: TestStack["bitcoin"];
    // No operator keys: each devnet brings its own, as under npm start.
    const environmentKeys = parseFamilyKeys({}, FAMILY_KEY_SCHEMAS);
    let bitcoinKeys = environmentKeys.bvm;
    let bitcoinDevnet: StartedDevnet<typeof bitcoinKeys, DevnetBitcoin> | undefined;
    if (options.bitcoin) {
      bitcoinDevnet = await startDevnet(bitcoinFactories);
      const btc = bitcoinDevnet.devnet;
      bitcoinKeys = bitcoinDevnet.keys;
      const proxy = options.bitcoinProxy ? await startEsploraProxy(btc.esploraUrl) : undefined;
      if (proxy) stops.push(() => proxy.close());
      bitcoin = {
        devnet: btc,
        ...(proxy ? { proxy } : {}),
        chain: bitcoinChainConfigSchema.parse({
          ...bitcoinDevnet.manifest.chains[0]!,
          ...(proxy ? { esploraUrl: proxy.url } : {}),
          blockTimeSeconds: 1,
          ...(options.bitcoinRefundUnmatchedAfterBlocks === undefined
            ? {}
            : { refundUnmatchedAfterBlocks: options.bitcoinRefundUnmatchedAfterBlocks }),
        }),
      };
    }
    let solana: TestStack["solana"];
    const solanaDevnet = options.solana ? await startDevnet(svmFactories) : undefined;
    if (solanaDevnet) {
      const after = options.solanaRefundUnmatchedAfterBlocks;
      const chain = solanaDevnet.chains[0] as SvmChainConfig;
      solana = {
        devnet: solanaDevnet.devnet,
        chain: after === undefined ? chain : { ...chain, refundUnmatchedAfterBlocks: after },
      };
    }
    const exchangeDevnet = options.exchange ? await startDevnet(hypevmFactories) : undefined;
    // The families beyond FAMILY_FACTORIES' (a test's own), each from its own devnet starter.
    const families = options.families ?? allFamilyFactories();
    const started = new Map<AnyFamilyFactories, StartedDevnet<unknown>>([
      [evmFactories, evm],
      ...(bitcoinDevnet ? [[bitcoinFactories, bitcoinDevnet] as const] : []),
      ...(solanaDevnet ? [[svmFactories, solanaDevnet] as const] : []),
      ...(exchangeDevnet ? [[hypevmFactories, exchangeDevnet] as const] : []),
    ]);
    for (const factories of families)
      if (!allFamilyFactories().includes(factories)) started.set(factories, await startDevnet(factories));
    const ownChains = [...started.entries()].flatMap(([factories, devnet]) =>
      allFamilyFactories().includes(factories) ? [] : devnet.chains,
    );
    const familyChains: ChainConfig[] = [
      ...evmChains,
      ...(bitcoin ? [bitcoin.chain] : []),
      ...(solana ? [solana.chain] : []),
      ...(exchangeDevnet?.chains ?? []).map((chain) =>
        options.exchangeRefundUnmatchedAfterBlocks === undefined
          ? chain
          : { ...chain, refundUnmatchedAfterBlocks: options.exchangeRefundUnmatchedAfterBlocks },
      ),
    ];
    const chains: ChainConfig[] = [...(hermes ? withDevnetPythFeeds(familyChains) : familyChains), ...ownChains];
    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    // Dropping the database at stop ends idle clients; that must not crash the test process.
    pool.on("error", (error) => logger.debug({ err: error }, "idle postgres client ended"));
    stops.push(() => pool.end());
    await migrate(pool);

    const pipeline = options.pipeline ?? true;
    const serverKey = randomBytes(32);
    const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-test-")), "chains.json");
    // A chains file holds FAMILIES' chains only (a test family's chains reach its roles through the composition).
    writeFileSync(chainsFile, JSON.stringify({ chains: chains.filter((chain) => !ownChains.includes(chain)) }));
    // Each family's indexer role, as npm start and `crossfill indexer <command>` start it.
    let stopIndexers: () => Promise<void> = async () => {};
    if (pipeline) {
      const indexers = await startFamilyIndexers(
        chains,
        {
          config,
          chainsFile,
          databaseUrl: db.url,
          logger,
          quiet: true,
          onExit: ({ code, signal }) => logger.error({ code, signal }, "an indexer exited"),
        },
        families,
      );
      stops.push(indexers);
      // Its stop empties its own list: stopping it again at the stack's stop does nothing.
      stopIndexers = indexers;
    }

    const queues = createQueueBackend({
      databaseUrl: db.url,
      redisUrl: (options.queue ?? process.env.TEST_QUEUE) === "postgres" ? undefined : redisUrl,
      prefix: `test-${db.name}`,
      onError: (err, source) => logger.warn({ err, source }, "queue connection error"),
    });
    stops.push(() => queues.close());
    // The worker's notifier and the API's push channels meet on Redis when the queues use it, in process otherwise.
    const statusBus = createStatusBus({
      redisUrl: queues.kind === "redis" ? redisUrl : undefined,
      prefix: `test-${db.name}`,
    });
    stops.push(() => statusBus.close());
    // A started devnet's keys win over the (empty) environment's, as under npm start.
    const keys: FamilyKeys = {
      ...environmentKeys,
      ...Object.fromEntries([...started.entries()].map(([factories, devnet]) => [factories.vmType, devnet.keys])),
      evm: evm.keys,
      bvm: bitcoinKeys,
    };
    const prices = { ...TEST_PRICES, ...options.prices };
    // Each role its own layer, as in production (two processes); live ones read the aggregators through its adapters.
    const priceSettings = hermes ? devnetPriceSettings(config, hermes.hermesUrl, chains) : undefined;
    const rolePriceSource = (adapters: ChainAdapters, table: Record<string, string>) =>
      priceSettings ? createConfiguredPriceSource(priceSettings, { adapters }) : createStaticPriceSource(table);
    const chainFamilies = families.map((factories) => factories.family);
    if (pipeline) {
      const workerAdapters = familyAdapters(chains, roleAdapterKeys(keys, "worker", families), { pool }, families);
      const worker: RunningWorker = await startWorker({
        pool,
        chains,
        families: chainFamilies,
        adapters: workerAdapters,
        queues,
        // The views the EVM indexer role publishes (it passes ONCHAIN_SCHEMA to Ponder).
        onchainSchema: config.ONCHAIN_SCHEMA,
        logger,
        statusBus,
        prices: rolePriceSource(workerAdapters, options.workerPrices ?? prices),
        debugReferrers: true,
        ...(options.stuckFill ? { stuckFill: options.stuckFill } : {}),
        ...(options.appFeeClaimRetry ? { appFeeClaimRetry: options.appFeeClaimRetry } : {}),
        // Local http receivers, as on the devnet (WEBHOOK_ALLOW_PRIVATE).
        webhooks: { serverKey, allowPrivate: true, retryBaseMs: options.webhookRetryBaseMs ?? 200 },
        ...(options.metrics?.worker ? { metrics: options.metrics.worker } : {}),
      });
      stops.push(() => worker.close());
    }
    const explorerUrl = options.explorerUrl;
    const apiChains = explorerUrl
      ? chains.map((chain) => ({
          ...chain,
          explorerUrl: typeof explorerUrl === "function" ? explorerUrl(chain) : `${explorerUrl}/${chain.id}`,
        }))
      : chains;
    // The gateway holds the solver's address and asks the worker's order signer, as in production.
    const orderSigner = await serveDevnetOrderSigner(keys.evm, logger);
    stops.push(() => orderSigner.close());
    const apiKeys = { ...keys, evm: orderSigner.gatewayKeys };
    const apiAdapters = familyAdapters(apiChains, roleAdapterKeys(apiKeys, "api", families), { pool }, families);
    const api = await startApi({
      pool,
      chains: apiChains,
      families: chainFamilies,
      adapters: apiAdapters,
      logger,
      host: "127.0.0.1",
      port: 0,
      statusBus,
      webhooks: { allowPrivate: true },
      serverKey,
      routeLimits: testRouteLimits(options.rateLimits),
      prices: rolePriceSource(apiAdapters, prices),
      settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
      ...(options.metrics?.api ? { metrics: options.metrics.api } : {}),
      ...(options.apiNow ? { now: options.apiNow } : {}),
      // As `crossfill dev`: the worker publishes on this bus, so lookups are served from the gateway's cache.
      ...(pipeline || options.statusCache ? { statusCache: { ttlMs: 5_000, maxEntries: 100_000 } } : {}),
    });
    stops.push(() => api.close());
    return {
      devnet,
      ...(hermes ? { hermes } : {}),
      bitcoin,
      solana,
      // The map holds each family's own handle.
      devnetOf: (factories) => started.get(factories)?.devnet as never,
      serverKey,
      databaseUrl: db.url,
      pool,
      api,
      queues,
      onchainSchema: pipeline ? config.ONCHAIN_SCHEMA : undefined,
      stopIndexers: () => stopIndexers(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
