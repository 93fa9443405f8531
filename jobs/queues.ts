import type { JobsOptions } from "bullmq";

/** Queue names, payloads, job ids and options: the contract between whoever enqueues and the workers. */
export const QUEUES = { reconcile: "crossfill-reconcile", fill: "crossfill-fill" } as const;

export type ReconcileJob = Record<string, never>;
export type FillJob = { requestId: string };

/** One fill job per request: BullMQ drops a duplicate add while the first is kept; Postgres keys decide the rest. */
export function fillJobId(requestId: string): string {
  return `fill-${requestId}`;
}

export const FILL_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: "exponential", delay: 250 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 3600 },
};

/** How often the reconcile tick reads new chain facts; it bounds deposit → pending latency. */
export const RECONCILE_EVERY_MS = 100;
