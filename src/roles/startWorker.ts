import type pg from "pg";
import type { Logger } from "pino";
import { createFillProcessor } from "../../jobs/fill.js";
import type { StuckFillPolicy } from "../chains/adapter.js";
import { startNotifier } from "../../jobs/notify.js";
import { startStatsFold } from "../../jobs/startStatsFold.js";
import type { QueueBackend } from "../../jobs/queueBackend.js";
import { createWebhookProcessor } from "../../jobs/webhook.js";
import { startWebhookFanout } from "../../jobs/webhookFanout.js";
import { HeldElsewhereError } from "../domain/errors.js";
import { createWebhookPoster } from "../webhooks/postWebhook.js";
import {
  type FillJob,
  JOB_OPTIONS,
  QUEUES,
  RECONCILE_EVERY_MS,
  type ReconcileJob,
  type RefundJob,
  WEBHOOK_JOB_OPTIONS,
  type WebhookJob,
  delayedFillJobId,
  fillJobId,
  refundJobId,
} from "../../jobs/queues.js";
import { reconcile } from "../../jobs/reconcile.js";
import { reportNewErrors } from "../runtime/reportNewErrors.js";
import { createRefundProcessor } from "../../jobs/refund.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { EvmSolver } from "../chains/evm/evmSolver.js";
import type { StatusBus } from "../events/createStatusBus.js";
import { createChainRegistry } from "../chains/chainRegistry.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import { solverAdapters } from "./solverAdapters.js";

export type WorkerDeps = {
  pool: pg.Pool;
  chains: readonly ChainConfig[];
  solver: EvmSolver;
  queues: QueueBackend;
  onchainSchema: string;
  logger: Logger;
  /** USD prices by symbol: a refund's gas is charged in the refunded token. */
  prices: Record<string, string>;
  fillConcurrency?: number;
  /** Where the notifier publishes status changes (websocket feed, GraphQL subscriptions); without it no notifier runs here. */
  statusBus?: StatusBus;
  /** The devnet honours the debug-force-refund referrer. */
  debugReferrers?: boolean;
  /** When an unmined fill is re-priced and cancelled; the defaults suit real chains. */
  stuckFill?: StuckFillPolicy;
  /** Webhook delivery; without it no webhook is sent from this worker. */
  webhooks?: WebhookSettings;
};

export type WebhookSettings = {
  /** API_KEY_ENCRYPTION_KEY: unseals the API keys the webhooks are signed with. */
  serverKey: Buffer;
  /** WEBHOOK_ALLOW_PRIVATE: the devnet posts to local http receivers; production only to public https. */
  allowPrivate: boolean;
  /** The first retry's nominal delay (WEBHOOK_RETRY_BASE_MS; tests shrink it). */
  retryBaseMs?: number;
  concurrency?: number;
};

export type RunningWorker = { close(): Promise<void> };

/** The worker process: the reconcile tick, the solver's fills and refunds, the requestStats fold. */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { logger, pool } = deps;
  const adapters = solverAdapters(deps.chains, { evm: deps.solver });
  const registry = createChainRegistry(deps.chains);
  const prices = createStaticPriceSource(deps.prices);
  for (const adapter of adapters.all) {
    const done = await adapter.prepareSolver(pool);
    if (done.length) logger.info({ chainId: adapter.chain.id, done }, "solver prepared");
  }
  const fillQueue = deps.queues.createQueue<FillJob>(QUEUES.fill);
  const refundQueue = deps.queues.createQueue<RefundJob>(QUEUES.refund);
  const reconcileQueue = deps.queues.createQueue<ReconcileJob>(QUEUES.reconcile);

  const enqueueFill = async (requestId: string) => {
    await fillQueue.add("fill", { requestId }, { ...JOB_OPTIONS, jobId: fillJobId(requestId) });
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
      ...(deps.stuckFill ? { stuckFill: deps.stuckFill } : {}),
      logger,
    }),
    { concurrency: deps.fillConcurrency ?? 4 },
  );
  fillWorker.on("failed", (job, error) =>
    logger.warn({ requestId: job?.data.requestId, attempt: job?.attemptsMade, err: error }, "fill attempt failed"),
  );
  const refundWorker = deps.queues.createWorker<RefundJob>(
    QUEUES.refund,
    createRefundProcessor({ pool, adapters, registry, prices, logger }),
    { concurrency: 2 },
  );
  refundWorker.on("failed", (job, error) =>
    logger.warn({ refundId: job?.data.refundId, attempt: job?.attemptsMade, err: error }, "refund attempt failed"),
  );

  // The indexer's views appear only once it has started; until then every tick fails the same way.
  const reconcileErrors = reportNewErrors((error) => logger.warn({ err: error }, "reconcile tick failed"));
  const reconcileWorker = deps.queues.createWorker<ReconcileJob>(QUEUES.reconcile, async () => {
    try {
      const result = await reconcile({
        pool,
        onchainSchema: deps.onchainSchema,
        enqueueFill,
        enqueueRefund,
        registry,
        prices,
        logger,
      });
      reconcileErrors.succeeded();
      return result;
    } catch (error) {
      reconcileErrors.failed(error);
      throw error;
    }
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
  const statsFold = startStatsFold({ pool, logger });
  logger.info({ queues: deps.queues.kind }, "worker started");
  return {
    async close() {
      await notifier?.close();
      await webhooks?.close();
      await statsFold.close();
      await reconcileWorker.close();
      await fillWorker.close();
      await refundWorker.close();
    },
  };
}

/** The webhook fan-out (its own outbox cursor) and the delivery worker. */
async function startWebhooks(deps: WorkerDeps, settings: WebhookSettings): Promise<RunningWorker> {
  const queue = deps.queues.createQueue<WebhookJob>(QUEUES.webhook);
  const enqueue = async (job: WebhookJob, options: { jobId: string; delayMs: number }) => {
    await queue.add("deliver", job, { ...WEBHOOK_JOB_OPTIONS, jobId: options.jobId, delay: options.delayMs });
  };
  const poster = createWebhookPoster({ allowPrivate: settings.allowPrivate });
  const worker = deps.queues.createWorker<WebhookJob>(
    QUEUES.webhook,
    createWebhookProcessor({
      pool: deps.pool,
      serverKey: settings.serverKey,
      poster,
      enqueue,
      logger: deps.logger,
      retryBaseMs: settings.retryBaseMs,
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
