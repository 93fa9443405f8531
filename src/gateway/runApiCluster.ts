import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";
import type { Shutdown } from "../runtime/shutdown.js";

/**
 * `crossfill api --workers N`: this process (the cluster's primary) forks N copies of the api role that share its
 * port (the primary hands each connection to the next worker). Every worker is a full gateway: its own status
 * cache and bus subscription, the rate-limit counters shared through Redis or Postgres as between replicas. A worker
 * that dies after start-up is replaced; the shutdown sends SIGTERM to every worker and waits for all of them.
 * Workers run with this process's Node flags and a young generation of `semiSpaceMb` (API_WORKER_SEMI_SPACE_MB).
 */
export async function runApiCluster(options: {
  workers: number;
  semiSpaceMb: number;
  logger: Logger;
}): Promise<Shutdown> {
  const { logger } = options;
  cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-semi-space-size=${options.semiSpaceMb}`] });
  let stopping = false;
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once("exit", (code, signal) => {
      if (stopping || !started) return;
      logger.error({ pid: worker.process.pid, code, signal }, "api worker exited; starting another");
      setTimeout(() => !stopping && fork(), 1_000).unref();
    });
    return worker;
  };
  let started = false;
  const workers = Array.from({ length: options.workers }, fork);
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            worker.once("listening", () => resolve());
            worker.once("exit", (code) => reject(new Error(`api worker ${worker.process.pid} exited with ${code}`)));
          }),
      ),
    );
  } catch (error) {
    stopping = true;
    for (const worker of workers) if (!worker.isDead()) worker.process.kill("SIGKILL");
    throw error;
  }
  started = true;
  logger.info({ workers: workers.map((worker) => worker.process.pid) }, "api cluster listening");
  return async () => {
    stopping = true;
    await Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (!worker || worker.isDead()) return resolve();
            worker.once("exit", () => resolve());
            worker.process.kill("SIGTERM");
          }),
      ),
    );
  };
}
