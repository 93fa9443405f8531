import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { devnetBitcoinChain } from "../../devnet/bitcoin/devnetBitcoinChain.js";
import { type DevnetBitcoin, startDevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";
import { type DevnetChains, startDevnetChains } from "../../devnet/startDevnetChains.js";
import { devnetSolanaChain } from "../../devnet/svm/devnetSolanaChain.js";
import { type DevnetSolana, startDevnetSolana } from "../../devnet/svm/startDevnetSolana.js";
import { type SvmChainConfig, svmChainConfigSchema } from "../../src/chains/svm/svmChainFamily.js";
import { freePort } from "../../devnet/freePort.js";
import { type EvmIndexer, startEvmIndexer } from "../../indexers/evm/startEvmIndexer.js";
import { type QueueBackend, createQueueBackend } from "../../jobs/queueBackend.js";
import { migrate } from "../../schema/migrate.js";
import { createStatusBus } from "../../src/events/createStatusBus.js";
import { type RunningApi, startApi } from "../../src/gateway/startApi.js";
import { type RunningWorker, startWorker } from "../../jobs/startWorker.js";
import { familyAdapters, roleAdapterKeys } from "../../apps/families/familyAdapters.js";
import type { FamilyKeys } from "../../apps/families/factories.js";
import { familyPollerChains } from "../../apps/families/familyPollerChains.js";
import { startPollers } from "../../indexers/startPollers.js";
import { startDepositWatchers } from "../../indexers/startDepositWatchers.js";
import { type BitcoinChainConfig, type ChainConfig, bitcoinChainConfigSchema } from "../../src/chains/chainConfig.js";
import type { StuckFillPolicy } from "../../src/chains/adapter.js";
import type { ConfirmationTier } from "../../src/domain/requiredConfirmations.js";
import type { AppFeeClaimRetryPolicy } from "../../jobs/createAppFeeClaimPayoutProcessor.js";
import { type EsploraProxy, startEsploraProxy } from "./startEsploraProxy.js";
import { createTestDatabase } from "./testDatabase.js";
import { type PriceSource, createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { testRouteLimits } from "./testRateLimits.js";

export type TestStack = {
  devnet: DevnetChains;
  /** With `bitcoin: true`: the devnet Bitcoin (mined on demand) and its chain as the service sees it. */
  bitcoin?: { devnet: DevnetBitcoin; chain: BitcoinChainConfig; proxy?: EsploraProxy };
  /** With `solana: true`: the devnet Solana (slots on demand, `advance`) and its chain as the service sees it. */
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
  stop(): Promise<void>;
};

export const TEST_PRICES = { ETH: "3000", WETH: "3000", USDC: "1", BTC: "60000", HYPE: "40", SOL: "150" };
/** The same prices as the `PRICES` variable of a role started as its own process (`crossfill api`, `worker`). */
export const TEST_PRICES_ENV = Object.entries(TEST_PRICES)
  .map(([symbol, usd]) => `${symbol}=${usd}`)
  .join(",");

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The whole service on real local parts: anvil chains, a fresh Postgres database, the Ponder indexer,
 * BullMQ (Redis unless `queue: "postgres"` or TEST_QUEUE=postgres), the worker and the HTTP API; `pipeline: false` leaves out the
 * indexer and the worker, for tests of the API alone.
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
    /** The API's chains get `<explorerUrl>/<chain id>` as explorerUrl (the devnet has no explorer): for link tests. */
    explorerUrl?: string;
    /** Serve status lookups from the gateway's cache without a worker (on by default with one). */
    statusCache?: boolean;
    /**
     * Adds the devnet Bitcoin, mined on demand (`stack.bitcoin.devnet.mine()`), and its poller. Its chain keeps a
     * 1 s block time, so a fill waiting for confirmations looks again every second.
     */
    bitcoin?: boolean;
    /** The API's price layer (default: the static TEST_PRICES). */
    prices?: PriceSource;
    /** The worker's prices when they differ from the API's (TEST_PRICES): prices moved since the quote. */
    workerPrices?: Record<string, string>;
    /** The service reads the devnet Bitcoin through an Esplora proxy whose broadcasts can fail (`stack.bitcoin.proxy`). */
    bitcoinProxy?: boolean;
    /** The Bitcoin chain's `refundUnmatchedAfterBlocks` (its default is a day of blocks). */
    bitcoinRefundUnmatchedAfterBlocks?: number;
    /**
     * Adds the devnet Solana, a slot every 50 ms, and its poller; a transaction is confirmed one slot after it lands and
     * finalized `solanaFinalizedAfterSlots` (default 32) after.
     */
    solana?: boolean;
    solanaFinalizedAfterSlots?: number;
    /** The API's RATE_LIMITS (default TEST_RATE_LIMITS: the routes flows hammer are not counted). */
    rateLimits?: string;
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
    const devnet = await startDevnetChains({
      chainIds: options.chainIds ?? [31338, 31339],
      blockTime: options.blockTime ?? 1,
      confirmations: options.confirmations,
    });
    stops.push(() => devnet.stop());
    let bitcoin: TestStack["bitcoin"];
    if (options.bitcoin) {
      const btc = await startDevnetBitcoin({ blockTimeMs: 0 });
      stops.push(() => btc.stop());
      const proxy = options.bitcoinProxy ? await startEsploraProxy(btc.esploraUrl) : undefined;
      if (proxy) stops.push(() => proxy.close());
      bitcoin = {
        devnet: btc,
        ...(proxy ? { proxy } : {}),
        chain: bitcoinChainConfigSchema.parse({
          ...devnetBitcoinChain(btc),
          ...(proxy ? { esploraUrl: proxy.url } : {}),
          blockTimeSeconds: 1,
          ...(options.bitcoinRefundUnmatchedAfterBlocks === undefined
            ? {}
            : { refundUnmatchedAfterBlocks: options.bitcoinRefundUnmatchedAfterBlocks }),
        }),
      };
    }
    let solana: TestStack["solana"];
    if (options.solana) {
      const sol = await startDevnetSolana({ slotMs: 50, finalizedAfterSlots: options.solanaFinalizedAfterSlots });
      stops.push(() => sol.stop());
      solana = {
        devnet: sol,
        chain: svmChainConfigSchema.parse({ ...devnetSolanaChain(sol), blockTimeSeconds: 0.05 }),
      };
    }
    const chains: ChainConfig[] = [
      ...devnet.chains,
      ...(bitcoin ? [bitcoin.chain] : []),
      ...(solana ? [solana.chain] : []),
    ];
    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    // Dropping the database at stop ends idle clients; that must not crash the test process.
    pool.on("error", (error) => logger.debug({ err: error }, "idle postgres client ended"));
    stops.push(() => pool.end());
    await migrate(pool);

    const pipeline = options.pipeline ?? true;
    const serverKey = randomBytes(32);
    const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-test-")), "chains.json");
    writeFileSync(chainsFile, JSON.stringify({ chains }));
    const indexer: EvmIndexer | undefined = pipeline
      ? await startEvmIndexer({ databaseUrl: db.url, chainsFile, port: await freePort(), logLevel: "warn" })
      : undefined;
    if (indexer) stops.push(() => indexer.stop());
    if (indexer && (options.depositWatcher ?? true)) {
      const watchers = startDepositWatchers({ pool, logger, chains });
      stops.push(() => watchers.stop());
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
    const keys: FamilyKeys = {
      evm: { solverPrivateKey: devnet.solver.privateKey },
      bvm: {
        depositoryWif: bitcoin?.devnet.depository.wif,
        solverWif: bitcoin?.devnet.solver.wif,
        depositXprv: bitcoin?.devnet.depositAddressKey.xprv,
        depositXpub: bitcoin?.devnet.depositAddressKey.xpub,
        maxFeeRateSatVb: undefined,
      },
      svm: { solverSecretKey: undefined, depositorySecretKey: undefined },
    };
    if (indexer) {
      const worker: RunningWorker = await startWorker({
        pool,
        chains,
        adapters: familyAdapters(chains, roleAdapterKeys(keys, "worker"), { pool }),
        queues,
        onchainSchema: indexer.viewsSchema,
        logger,
        statusBus,
        prices: createStaticPriceSource(options.workerPrices ?? TEST_PRICES),
        debugReferrers: true,
        ...(options.stuckFill ? { stuckFill: options.stuckFill } : {}),
        ...(options.appFeeClaimRetry ? { appFeeClaimRetry: options.appFeeClaimRetry } : {}),
        // Local http receivers, as on the devnet (WEBHOOK_ALLOW_PRIVATE).
        webhooks: { serverKey, allowPrivate: true, retryBaseMs: options.webhookRetryBaseMs ?? 200 },
      });
      stops.push(() => worker.close());
      const pollers = startPollers({ pool, logger, chains: familyPollerChains(chains, pool) });
      stops.push(() => pollers.stop());
    }
    const explorerUrl = options.explorerUrl;
    const apiChains = explorerUrl
      ? chains.map((chain) => ({ ...chain, explorerUrl: `${explorerUrl}/${chain.id}` }))
      : chains;
    const api = await startApi({
      pool,
      chains: apiChains,
      adapters: familyAdapters(apiChains, roleAdapterKeys(keys, "api"), { pool }),
      logger,
      host: "127.0.0.1",
      port: 0,
      statusBus,
      webhooks: { allowPrivate: true },
      serverKey,
      routeLimits: testRouteLimits(options.rateLimits),
      prices: options.prices ?? createStaticPriceSource(TEST_PRICES),
      settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
      // As `crossfill dev`: the worker publishes on this bus, so lookups are served from the gateway's cache.
      ...(indexer || options.statusCache ? { statusCache: { ttlMs: 5_000, maxEntries: 100_000 } } : {}),
    });
    stops.push(() => api.close());
    return {
      devnet,
      bitcoin,
      solana,
      serverKey,
      databaseUrl: db.url,
      pool,
      api,
      queues,
      onchainSchema: indexer?.viewsSchema,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
