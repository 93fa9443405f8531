import { Queue, Worker, createPostgresBackend, withBackend } from "bullmq";
import IORedis from "ioredis";
import { type JobProcessor, unrecoverableOnFinalErrors } from "./unrecoverableOnFinalErrors.js";

/**
 * BullMQ on Redis in production, on its Postgres backend for the embedded single-box mode. Either way the
 * rest of the code sees the same Queue and Worker classes and one `close`, and every processor is wrapped by
 * unrecoverableOnFinalErrors (a domain error that retrying cannot cure fails its job at once).
 */
export type QueueBackend = {
  kind: "redis" | "postgres";
  createQueue<T>(name: string): Queue<T>;
  createWorker<T>(name: string, processor: JobProcessor<T>, options?: { concurrency?: number }): Worker<T>;
  close(): Promise<void>;
};

// A SIGKILLed worker's job is picked up after the stall check; 5 s instead of 30 s keeps recovery quick.
const LOCK_SETTINGS = { lockDuration: 5_000, stalledInterval: 5_000 } as const;

export function createQueueBackend(options: { redisUrl?: string; databaseUrl: string; prefix?: string }): QueueBackend {
  // Redis keys are shared by everything on the server; a prefix keeps deployments (and test runs) apart.
  const prefix = options.prefix ?? "crossfill";
  const closers: Array<() => Promise<unknown>> = [];
  if (options.redisUrl) {
    const redisUrl = options.redisUrl;
    const queueConnection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    closers.push(async () => queueConnection.quit());
    return {
      kind: "redis",
      createQueue<T>(name: string) {
        const queue = new Queue<T>(name, { connection: queueConnection, prefix });
        closers.unshift(() => queue.close());
        return queue;
      },
      createWorker(name, processor, workerOptions) {
        // Its own connection (a worker blocks on it); BullMQ leaves a connection it was given open, so it is quit here.
        const connection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
        const worker = new Worker(name, unrecoverableOnFinalErrors(processor) as never, {
          connection,
          prefix,
          concurrency: workerOptions?.concurrency ?? 1,
          ...LOCK_SETTINGS,
        });
        closers.unshift(async () => {
          await worker.close();
          await connection.quit();
        });
        return worker;
      },
      async close() {
        for (const close of closers.splice(0)) await close();
      },
    };
  }
  const postgres = withBackend(createPostgresBackend);
  const connection = { connectionString: options.databaseUrl, migrate: true, max: 3 };
  return {
    kind: "postgres",
    createQueue<T>(name: string) {
      const queue = new postgres.Queue<T>(name, { connection }) as unknown as Queue<T>;
      closers.unshift(() => queue.close());
      return queue;
    },
    createWorker(name, processor, workerOptions) {
      const worker = new postgres.Worker(name, unrecoverableOnFinalErrors(processor) as never, {
        connection,
        concurrency: workerOptions?.concurrency ?? 1,
        ...LOCK_SETTINGS,
      }) as unknown as Worker;
      closers.unshift(() => worker.close());
      return worker;
    },
    async close() {
      for (const close of closers.splice(0)) await close();
    },
  };
}
