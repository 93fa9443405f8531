import type { Job } from "bullmq";
import type pg from "pg";
import type { DevnetChains } from "../devnet/startDevnetChains.js";
import { type QueueBackend, createQueueBackend } from "../jobs/queueBackend.js";
import { type FillJob, QUEUES } from "../jobs/queues.js";
import { startCrashCluster } from "../test/support/crashCluster.js";
import { startTestStack } from "../test/support/startTestStack.js";

/**
 * Where the pipeline runs: `processes` as production deploys it (`crossfill indexer evm`, `worker` and `api`, each
 * its own process, docs/OPERATIONS.md); `in-process` with the API, worker and head watcher inside the bench process
 * beside the load (the test stack), where they share one event loop with it.
 */
export type PipelineTopology = "processes" | "in-process";

export type PipelineStack = {
  devnet: DevnetChains;
  databaseUrl: string;
  pool: pg.Pool;
  apiUrl: string;
  /** The completed fill jobs BullMQ keeps (JOB_OPTIONS.removeOnComplete). */
  completedFillJobs(): Promise<Array<Job<FillJob>>>;
  /** The pids of the stack's own processes, by the name its CPU and memory are reported under. */
  processes(): Record<string, number>;
  description: string;
  stop(): Promise<void>;
};

const completedFillJobs = (queues: QueueBackend) =>
  queues.createQueue<FillJob>(QUEUES.fill).getJobs(["completed"], 0, -1);

export async function startPipelineStack(topology: PipelineTopology, depositWatcher: boolean): Promise<PipelineStack> {
  const watcher = depositWatcher ? " and the EVM head watcher" : " without the head watcher";
  if (topology === "in-process") {
    const stack = await startTestStack({ blockTime: 1, depositWatcher });
    return {
      devnet: stack.devnet,
      databaseUrl: stack.databaseUrl,
      pool: stack.pool,
      apiUrl: stack.api.url,
      completedFillJobs: () => completedFillJobs(stack.queues),
      processes: () => ({}),
      description: `startTestStack(): 2 anvil chains with 1 s blocks, fresh Postgres database, Ponder (websocket transport)${watcher}, BullMQ on Redis, worker and API in the bench process`,
      stop: () => stack.stop(),
    };
  }
  const cluster = await startCrashCluster({ depositWatcher });
  const queues = createQueueBackend({
    redisUrl: cluster.redisUrl,
    databaseUrl: cluster.databaseUrl,
    prefix: cluster.queuePrefix,
    onError: () => undefined,
  });
  return {
    devnet: cluster.devnet,
    databaseUrl: cluster.databaseUrl,
    pool: cluster.pool,
    apiUrl: cluster.apiUrl,
    completedFillJobs: () => completedFillJobs(queues),
    processes: () => {
      const pids = cluster.pids();
      return {
        "bench process (load orchestration)": process.pid,
        "crossfill api": pids["api#0"],
        "crossfill worker": pids["worker#0"],
        "crossfill indexer evm (head watcher; Ponder is its child)": pids["indexer#0"],
      };
    },
    description: `startCrashCluster(): 2 anvil chains with 1 s blocks, fresh Postgres database, crossfill indexer evm (Ponder, websocket transport${watcher}), crossfill worker and crossfill api (one process each), BullMQ on Redis; the bench process runs only the load`,
    stop: async () => {
      await queues.close();
      await cluster.stop();
    },
  };
}
