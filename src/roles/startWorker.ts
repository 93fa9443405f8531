import type pg from "pg";
import type { Logger } from "pino";
import type { LocalAccount } from "viem";
import { createFillProcessor } from "../../jobs/fill.js";
import { startNotifier } from "../../jobs/notify.js";
import type { QueueBackend } from "../../jobs/queueBackend.js";
import { FILL_JOB_OPTIONS, type FillJob, QUEUES, RECONCILE_EVERY_MS, type ReconcileJob, fillJobId } from "../../jobs/queues.js";
import { reconcile } from "../../jobs/reconcile.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { StatusBus } from "../events/createStatusBus.js";
import { createChainClients } from "./createChainClients.js";

export type WorkerDeps = {
  pool: pg.Pool;
  chains: readonly ChainConfig[];
  solver: LocalAccount;
  queues: QueueBackend;
  onchainSchema: string;
  logger: Logger;
  fillConcurrency?: number;
  /** Where the notifier publishes status changes (websocket feed, GraphQL subscriptions); without it no notifier runs here. */
  statusBus?: StatusBus;
};

export type RunningWorker = { close(): Promise<void> };

/** The worker process: the reconcile tick and the solver's fills. */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { logger } = deps;
  const client = createChainClients(deps.chains);
  const fillQueue = deps.queues.createQueue<FillJob>(QUEUES.fill);
  const reconcileQueue = deps.queues.createQueue<ReconcileJob>(QUEUES.reconcile);

  const enqueueFill = async (requestId: string) => {
    await fillQueue.add("fill", { requestId }, { ...FILL_JOB_OPTIONS, jobId: fillJobId(requestId) });
  };
  const fillWorker = deps.queues.createWorker<FillJob>(QUEUES.fill, createFillProcessor({ pool: deps.pool, client, solver: deps.solver, logger }), {
    concurrency: deps.fillConcurrency ?? 4,
  });
  fillWorker.on("failed", (job, error) =>
    logger.warn({ requestId: job?.data.requestId, attempt: job?.attemptsMade, err: error }, "fill attempt failed"),
  );

  let lastError = "";
  const reconcileWorker = deps.queues.createWorker<ReconcileJob>(QUEUES.reconcile, async () => {
    try {
      const result = await reconcile({ pool: deps.pool, onchainSchema: deps.onchainSchema, enqueueFill, logger });
      lastError = "";
      return result;
    } catch (error) {
      // The indexer's views appear only once it has started; until then every tick fails the same way.
      const message = (error as Error).message;
      if (message !== lastError) logger.warn({ err: error }, "reconcile tick failed");
      lastError = message;
      throw error;
    }
  });
  await reconcileQueue.upsertJobScheduler(
    "reconcile-tick",
    { every: RECONCILE_EVERY_MS },
    { name: "tick", data: {}, opts: { removeOnComplete: true, removeOnFail: { count: 100 } } },
  );
  const notifier = deps.statusBus ? await startNotifier({ pool: deps.pool, publish: deps.statusBus.publish, logger }) : undefined;
  logger.info({ queues: deps.queues.kind }, "worker started");
  return {
    async close() {
      await notifier?.close();
      await reconcileWorker.close();
      await fillWorker.close();
    },
  };
}
