import { Gauge } from "prom-client";
import type { Metrics } from "./createMetrics.js";

const STATES = ["waiting", "active", "delayed", "failed"] as const;

/** What a BullMQ queue (on Redis or on its Postgres backend) answers of its jobs. */
type CountedQueue = { name: string; getJobCounts(...states: string[]): Promise<Record<string, number>> };

/**
 * The worker's queues, their jobs counted by state at each scrape (BullMQ's getJobCounts: one round trip a queue).
 * `watch` is handed every queue the role creates; a queue whose count fails is left out of that scrape.
 */
export type QueueObserver = { watch(queue: CountedQueue): void };

export function observeQueues(metrics: Metrics): QueueObserver {
  const queues = new Map<string, CountedQueue>();
  new Gauge({
    name: "crossfill_queue_jobs",
    help: "Jobs in each queue by state (waiting, active, delayed, failed)",
    labelNames: ["queue", "state"] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      await Promise.all(
        [...queues.values()].map(async (queue) => {
          const counts = await queue.getJobCounts(...STATES).catch(() => undefined);
          for (const state of STATES) if (counts) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        }),
      );
    },
  });
  return { watch: (queue) => void queues.set(queue.name, queue) };
}
