import type pg from "pg";
import type { Logger } from "pino";
import { createFactWindows } from "./createFactWindows.js";
import { createFillProcessor } from "./createFillProcessor.js";
import { createReceiptConfirmer } from "./createReceiptConfirmer.js";
import type { StuckFillPolicy } from "../src/chains/adapter.js";
import { startNotifier } from "./startNotifier.js";
import { observeStatusEvents } from "./observeStatusEvents.js";
import { startStatsFold } from "./startStatsFold.js";
import type { QueueBackend } from "./queueBackend.js";
import { createWebhookProcessor } from "./createWebhookProcessor.js";
import { startWebhookFanout } from "./createWebhookFanout.js";
import { HeldElsewhereError } from "../src/domain/errors.js";
import { createWebhookPoster } from "../src/webhooks/postWebhook.js";
import { bindLegacyWebhookSecrets } from "../src/apiKeys/bindLegacyWebhookSecrets.js";
import type { WebhookDeliveryLimits } from "./webhookDeliveryLimits.js";
import {
  type FillJob,
  JOB_OPTIONS,
  QUEUES,
  RECONCILE_EVERY_MS,
  type ReconcileJob,
  type RefundJob,
  type AppFeeClaimJob,
  appFeeClaimJobId,
  WEBHOOK_JOB_OPTIONS,
  type WebhookJob,
  delayedFillJobId,
  fillJobId,
  refundJobId,
  delayedRefundJobId,
  type SweepJob,
  sweepJobId,
  type UnmatchedRefundJob,
  unmatchedRefundJobId,
} from "./queues.js";
import { createUnmatchedRefundProcessor } from "./createUnmatchedRefundProcessor.js";
import { scheduleUnmatchedRefunds } from "./scheduleUnmatchedRefunds.js";
import { createSweepProcessor } from "./createSweepProcessor.js";
import { positionPayload } from "./withPosition.js";
import type { SweepableDeposit } from "../schema/depositSweeps.js";
import type { ReconcileDeps } from "./reconcileDeps.js";
import { reconcileDeposits } from "./reconcileDeposits.js";
import { reconcileFillsAndRefunds } from "./reconcileFillsAndRefunds.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";
import { checkReceiptFills } from "./checkReceiptFills.js";
import { listenForChainFacts } from "../schema/chainFactsNotices.js";
import { createFillLedger } from "../schema/fillLedger.js";
import { coalesceRuns } from "../src/runtime/coalesceRuns.js";
import { reportNewErrors } from "../src/runtime/reportNewErrors.js";
import { createRefundProcessor } from "./createRefundProcessor.js";
import { type AppFeeClaimRetryPolicy, createAppFeeClaimPayoutProcessor } from "./createAppFeeClaimPayoutProcessor.js";
import { settleAppFeeClaims } from "./settleAppFeeClaims.js";
import type { ChainFamily } from "../src/chains/chainFamily.js";
import type { ChainConfig } from "../src/chains/chainConfig.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { StatusBus } from "../src/events/createStatusBus.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import type { Metrics } from "../src/metrics/createMetrics.js";
import { observeWebhookPoster } from "../src/metrics/observeWebhookPoster.js";
import { startSolverBalanceReader } from "./startSolverBalanceReader.js";

export type WorkerDeps = {
  pool: pg.Pool;
  chains: readonly ChainConfig[];
  /** The chain families the chains are read by (FAMILIES; a test composition adds its own family beside them). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family reads only chains of its vmType
  families?: readonly ChainFamily<any>[];
  /** The chains' adapters with the worker's keys (the composition root makes them with each family's factory). */
  adapters: ChainAdapters;
  queues: QueueBackend;
  onchainSchema: string;
  logger: Logger;
  /** The price layer (createConfiguredPriceSource): confirmation tiers, chain limits, late deposits, refund gas. */
  prices: PriceSource;
  fillConcurrency?: number;
  /** Where the notifier publishes status changes (websocket feed, GraphQL subscriptions); without it no notifier runs here. */
  statusBus?: StatusBus;
  /** The devnet honours the debug-force-refund referrer. */
  debugReferrers?: boolean;
  /** When an unmined fill is re-priced and cancelled; the defaults suit real chains. */
  stuckFill?: StuckFillPolicy;
  /** Webhook delivery; without it no webhook is sent from this worker. */
  webhooks?: WebhookSettings;
  /** Retries of app fee claims the Depository cannot cover; the defaults without it (tests shrink them). */
  appFeeClaimRetry?: AppFeeClaimRetryPolicy;
  /**
   * The role's Prometheus registry: status changes, fills, refunds, webhook deliveries, the solver's inventory and
   * the sponsors' balances are observed into it.
   */
  metrics?: Metrics;
  /** How often the solver's balances are read when no fill asks sooner (SOLVER_BALANCE_EVERY_MS by default). */
  solverBalanceEveryMs?: number;
};

export type WebhookSettings = {
  /** API_KEY_ENCRYPTION_KEY: unseals the API keys the webhooks are signed with. */
  serverKey: Buffer;
  /** WEBHOOK_ALLOW_PRIVATE: the devnet posts to local http receivers; production only to public https. */
  allowPrivate: boolean;
  /** The first retry's nominal delay (WEBHOOK_RETRY_BASE_MS; tests shrink it). */
  retryBaseMs?: number;
  concurrency?: number;
  /** Per endpoint: attempts in flight, circuit breaker, connect timeout (webhookDeliveryLimits); defaults without. */
  limits?: WebhookDeliveryLimits;
};

export type RunningWorker = { close(): Promise<void> };

const RECEIPT_FILL_CHECK_EVERY_MS = 1_000;

/** The worker process: the reconcile tick, the solver's fills and refunds, the requestStats fold. */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { logger, pool, adapters } = deps;
  const registry = createChainRegistry(deps.chains, deps.families);
  const { prices } = deps;
  for (const solver of adapters.all("solver")) {
    const done = (await solver.prepareSolver?.(createFillLedger(pool))) ?? [];
    if (done.length) logger.info({ chainId: solver.chain.id, done }, "solver prepared");
  }
  const fillQueue = deps.queues.createQueue<FillJob>(QUEUES.fill);
  const refundQueue = deps.queues.createQueue<RefundJob>(QUEUES.refund);
  const reconcileQueue = deps.queues.createQueue<ReconcileJob>(QUEUES.reconcile);
  const claimQueue = deps.queues.createQueue<AppFeeClaimJob>(QUEUES.appFeeClaim);

  const enqueueFill = async (requestId: string, options?: { key: string }) => {
    const jobId = options ? delayedFillJobId(requestId, options.key) : fillJobId(requestId);
    await fillQueue.add("fill", { requestId }, { ...JOB_OPTIONS, jobId });
  };
  const enqueueDelayedFill = async (requestId: string, options: { delayMs: number; key: string }) => {
    await fillQueue.add(
      "fill",
      { requestId },
      { ...JOB_OPTIONS, delay: options.delayMs, jobId: delayedFillJobId(requestId, options.key) },
    );
  };
  const enqueueRefund = async (refundId: string) => {
    await refundQueue.add("refund", { refundId }, { ...JOB_OPTIONS, jobId: refundJobId(refundId) });
  };
  const enqueueDelayedRefund = async (refundId: string, options: { delayMs: number; key: string }) => {
    await refundQueue.add(
      "refund",
      { refundId },
      { ...JOB_OPTIONS, delay: options.delayMs, jobId: delayedRefundJobId(refundId, options.key) },
    );
  };
  const sweepQueue = deps.queues.createQueue<SweepJob>(QUEUES.sweep);
  const enqueueSweep = adapters.all("deposits").some((deposits) => deposits.signSweep)
    ? async (deposit: SweepableDeposit) => {
        const job = positionPayload(deposit);
        await sweepQueue.add("sweep", job, { ...JOB_OPTIONS, jobId: sweepJobId(job) });
      }
    : undefined;
  const enqueueClaim = async (claimId: string) => {
    await claimQueue.add("pay", { claimId }, { ...JOB_OPTIONS, jobId: appFeeClaimJobId(claimId) });
  };
  const receipts = createReceiptConfirmer({ pool, adapters, registry, logger });
  const fillWorker = deps.queues.createWorker<FillJob>(
    QUEUES.fill,
    createFillProcessor({
      pool,
      adapters,
      registry,
      prices,
      enqueueRefund,
      enqueueFill: enqueueDelayedFill,
      debugReferrers: deps.debugReferrers ?? false,
      receipts,
      ...(deps.stuckFill ? { stuckFill: deps.stuckFill } : {}),
      logger,
    }),
    { concurrency: deps.fillConcurrency ?? 4 },
  );
  // The solver's balances, read on a timer and again after each fill job (what it paid is gone from them).
  const solverBalances = startSolverBalanceReader({
    pool,
    adapters,
    registry,
    logger,
    everyMs: deps.solverBalanceEveryMs,
  });
  fillWorker.on("completed", () => void solverBalances.refresh());
  fillWorker.on("failed", (job, error) =>
    logger.warn({ requestId: job?.data.requestId, attempt: job?.attemptsMade, err: error }, "fill attempt failed"),
  );
  const refundWorker = deps.queues.createWorker<RefundJob>(
    QUEUES.refund,
    createRefundProcessor({ pool, adapters, registry, prices, enqueueRefund: enqueueDelayedRefund, logger }),
    { concurrency: 2 },
  );
  refundWorker.on("failed", (job, error) =>
    logger.warn({ refundId: job?.data.refundId, attempt: job?.attemptsMade, err: error }, "refund attempt failed"),
  );

  const sweepWorker = deps.queues.createWorker<SweepJob>(
    QUEUES.sweep,
    createSweepProcessor({ pool, adapters, logger }),
  );
  sweepWorker.on("failed", (job, error) =>
    logger.warn({ requestId: job?.data.requestId, attempt: job?.attemptsMade, err: error }, "sweep attempt failed"),
  );

  const unmatchedRefundQueue = deps.queues.createQueue<UnmatchedRefundJob>(QUEUES.unmatchedRefund);
  const unmatchedRefundWorker = deps.queues.createWorker<UnmatchedRefundJob>(
    QUEUES.unmatchedRefund,
    createUnmatchedRefundProcessor({ pool, adapters, registry, prices, logger }),
  );
  unmatchedRefundWorker.on("failed", (job, error) =>
    logger.warn({ deposit: job?.data, attempt: job?.attemptsMade, err: error }, "unmatched refund attempt failed"),
  );
  const unmatchedRefunds = scheduleUnmatchedRefunds({
    pool,
    // Chains whose family refunds payments that name no request (Bitcoin), after its chain's number of blocks.
    rules: deps.chains.flatMap((chain) => {
      const afterBlocks = registry.family(chain).capabilities(chain).refundUnmatchedAfterBlocks;
      return afterBlocks === undefined ? [] : [{ chainId: chain.id, afterBlocks }];
    }),
    enqueue: async (deposit) => {
      const job = positionPayload(deposit);
      await unmatchedRefundQueue.add("refund", job, { ...JOB_OPTIONS, jobId: unmatchedRefundJobId(job) });
    },
    logger,
  });

  const claimWorker = deps.queues.createWorker<AppFeeClaimJob>(
    QUEUES.appFeeClaim,
    createAppFeeClaimPayoutProcessor({ pool, adapters, logger, retry: deps.appFeeClaimRetry }),
  );
  claimWorker.on("failed", (job, error) =>
    logger.warn({ claimId: job?.data.claimId, attempt: job?.attemptsMade, err: error }, "app fee claim payout failed"),
  );

  const reconcileDeps: ReconcileDeps = {
    pool,
    onchainSchema: deps.onchainSchema,
    enqueueFill,
    enqueueRefund,
    enqueueSweep,
    registry,
    prices,
    logger,
  };
  // The indexer's views appear only once it has started; until then every tick fails the same way: each part's
  // errors are logged when they change.
  const reportingErrors = <T>(part: string, run: () => Promise<T>) => {
    const errors = reportNewErrors((error) => logger.warn({ err: error, part }, "reconcile tick failed"));
    return async () => {
      try {
        const result = await run();
        errors.succeeded();
        return result;
      } catch (error) {
        errors.failed(error);
        throw error;
      }
    };
  };
  // Deposits, and the rest of a pass, each one pass at a time in this process, whether the tick or an indexer's
  // notice asked for it; the two side by side, so a block's deposits never wait behind the last block's fills.
  const depositWindows = createFactWindows();
  const depositsNow = coalesceRuns(
    reportingErrors("deposits", () => depositWindows((window) => reconcileDeposits(reconcileDeps, window))),
  );
  const restWindows = createFactWindows();
  const restNow = coalesceRuns(
    reportingErrors("fills and refunds", async () => {
      const result = await restWindows((window) => reconcileFillsAndRefunds(reconcileDeps, window));
      const claims = await settleAppFeeClaims({ pool, onchainSchema: deps.onchainSchema, enqueueClaim, logger });
      const unmatched = await unmatchedRefunds();
      return { ...result, claims, unmatched };
    }),
  );
  const reconcileNow = async () => {
    const [deposits, rest] = await Promise.all([depositsNow(), restNow()]);
    return { deposits: deposits.deposits, ...rest };
  };
  const reconcileWorker = deps.queues.createWorker<ReconcileJob>(QUEUES.reconcile, () => reconcileNow());
  // New facts wake the reconcile as they commit; the tick stays, for notices lost while the connection was down.
  const factsListener = listenForChainFacts(pool, () => void reconcileNow().catch(() => undefined), {
    ponderViewsSchema: deps.onchainSchema,
    onError: (error) => logger.warn({ err: error }, "listening for new chain facts failed; retrying"),
  });
  await reconcileQueue.upsertJobScheduler(
    "reconcile-tick",
    { every: RECONCILE_EVERY_MS },
    { name: "tick", data: {}, opts: { removeOnComplete: true, removeOnFail: { count: 100 } } },
  );
  const notifier = deps.statusBus
    ? await startNotifier({ pool: deps.pool, publish: deps.statusBus.publish, logger })
    : undefined;
  const webhooks = deps.webhooks && (await startWebhooks(deps, deps.webhooks));
  const statusMetrics = deps.metrics && (await observeStatusEvents(deps, deps.metrics));
  const statsFold = startStatsFold({ pool, logger });
  // Fills a request succeeded on, from the solver's receipt, that the indexer does not show: reorged out, moved, late.
  const receiptFillCheck = repeatEvery(
    RECEIPT_FILL_CHECK_EVERY_MS,
    async () => void (await checkReceiptFills({ pool, onchainSchema: deps.onchainSchema, adapters, receipts, logger })),
    (error) => logger.warn({ err: error }, "checking receipt fills failed"),
  );
  logger.info({ queues: deps.queues.kind }, "worker started");
  return {
    async close() {
      await factsListener.close();
      await notifier?.close();
      await webhooks?.close();
      await statusMetrics?.close();
      await statsFold.close();
      await receiptFillCheck.close();
      await reconcileWorker.close();
      await fillWorker.close();
      await solverBalances.close();
      await receipts.close();
      await refundWorker.close();
      await claimWorker.close();
      await sweepWorker.close();
      await unmatchedRefundWorker.close();
    },
  };
}

/** The webhook fan-out (its own outbox cursor) and the delivery worker. */
async function startWebhooks(deps: WorkerDeps, settings: WebhookSettings): Promise<RunningWorker> {
  const { bound, unreadable } = await bindLegacyWebhookSecrets(deps.pool, settings.serverKey);
  if (bound) deps.logger.info({ keys: bound }, "webhook secrets re-sealed bound to their key id");
  if (unreadable.length)
    deps.logger.warn(
      { keyIds: unreadable },
      "these keys' webhook secrets do not open under API_KEY_ENCRYPTION_KEY: their webhooks fail until they are replaced",
    );
  const queue = deps.queues.createQueue<WebhookJob>(QUEUES.webhook);
  const enqueue = async (job: WebhookJob, options: { jobId: string; delayMs: number }) => {
    await queue.add("deliver", job, { ...WEBHOOK_JOB_OPTIONS, jobId: options.jobId, delay: options.delayMs });
  };
  const posting = createWebhookPoster({
    allowPrivate: settings.allowPrivate,
    connectTimeoutMs: settings.limits?.connectTimeoutMs,
  });
  const poster = deps.metrics ? observeWebhookPoster(deps.metrics, posting) : posting;
  const worker = deps.queues.createWorker<WebhookJob>(
    QUEUES.webhook,
    createWebhookProcessor({
      pool: deps.pool,
      serverKey: settings.serverKey,
      poster,
      enqueue,
      logger: deps.logger,
      retryBaseMs: settings.retryBaseMs,
      endpoints: settings.limits?.endpoints,
    }),
    { concurrency: settings.concurrency ?? 32 },
  );
  worker.on("failed", (job, error) => {
    // Another job holding the attempt is how concurrent kicks of one delivery meet: expected, not worth a warning.
    if (!(error instanceof HeldElsewhereError))
      deps.logger.warn({ deliveryId: job?.data.deliveryId, err: error }, "webhook job failed");
  });
  const fanout = await startWebhookFanout({ pool: deps.pool, enqueue, logger: deps.logger });
  return {
    async close() {
      await fanout.close();
      await worker.close();
      poster.close();
    },
  };
}
