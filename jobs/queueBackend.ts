import { Queue, Worker, createPostgresBackend, withBackend } from "bullmq";
import IORedis from "ioredis";
import { clientReportingErrors } from "./clientReportingErrors.js";
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

export type QueueBackendOptions = {
  redisUrl?: string;
  databaseUrl: string;
  prefix?: string;
  /**
   * Connection errors of any queue or worker (BullMQ reconnects by itself). Without a listener BullMQ
   * prints them with console.error, e.g. every connection Postgres ends when it is stopped before us.
   */
  onError: (error: Error, source: string) => void;
};

export function createQueueBackend(options: QueueBackendOptions): QueueBackend {
  // Redis keys are shared by everything on the server; a prefix keeps deployments (and test runs) apart.
  const prefix = options.prefix ?? "crossfill";
  const closers: Array<() => Promise<unknown>> = [];
  const reportErrors = <E extends object>(emitter: E, source: string): E => {
    (emitter as unknown as NodeJS.EventEmitter).on("error", (error: Error) => options.onError(error, source));
    return emitter;
  };
  if (options.redisUrl) {
    const redisUrl = options.redisUrl;
    const queueConnection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    closers.push(async () => queueConnection.quit());
    return {
      kind: "redis",
      createQueue<T>(name: string) {
        const queue = reportErrors(new Queue<T>(name, { connection: queueConnection, prefix }), `queue ${name}`);
        closers.unshift(() => queue.close());
        return queue;
      },
      createWorker(name, processor, workerOptions) {
        // Its own connection (a worker blocks on it); BullMQ leaves a connection it was given open, so it is quit here.
        const connection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
        const worker = reportErrors(
          new Worker(name, unrecoverableOnFinalErrors(processor) as never, {
            connection,
            prefix,
            concurrency: workerOptions?.concurrency ?? 1,
            ...LOCK_SETTINGS,
          }),
          `worker ${name}`,
        );
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
  const connectionFor = (source: string) => ({
    connectionString: options.databaseUrl,
    migrate: true,
    max: 3,
    Client: clientReportingErrors((error) => options.onError(error, source)),
  });
  return {
    kind: "postgres",
    createQueue<T>(name: string) {
      const source = `queue ${name}`;
      const queue = reportErrors(
        new postgres.Queue<T>(name, { connection: connectionFor(source) }) as unknown as Queue<T>,
        source,
      );
      closers.unshift(() => queue.close());
      return queue;
    },
    createWorker(name, processor, workerOptions) {
      const source = `worker ${name}`;
      const worker = reportErrors(
        new postgres.Worker(name, unrecoverableOnFinalErrors(processor) as never, {
          connection: connectionFor(source),
          concurrency: workerOptions?.concurrency ?? 1,
          ...LOCK_SETTINGS,
        }) as unknown as Worker,
        source,
      );
      closers.unshift(() => worker.close());
      return worker;
    },
    async close() {
      for (const close of closers.splice(0)) await close();
    },
  };
}
