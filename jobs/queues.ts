import type { JobsOptions } from "bullmq";

/** Queue names, payloads, job ids and options: the contract between whoever enqueues and the workers. */
export const QUEUES = { reconcile: "crossfill-reconcile", fill: "crossfill-fill", refund: "crossfill-refund" } as const;

export type ReconcileJob = Record<string, never>;
export type FillJob = { requestId: string };
export type RefundJob = { refundId: string };

// BullMQ drops an add whose job id it still keeps, finished or not. A per-window id lets the reconcile
// tick queue stranded work again a few seconds later without flooding the queue in between; correctness
// rests on Postgres keys, never on this.
const REQUEUE_WINDOW_MS = 5_000;

export function fillJobId(requestId: string, now = Date.now()): string {
  return `fill-${requestId}-${Math.floor(now / REQUEUE_WINDOW_MS)}`;
}

/** A fill put off until its deposit reaches a block: one job per request and target block. */
export function delayedFillJobId(requestId: string, key: string): string {
  return `fill-${requestId}-at-${key}`;
}

export function refundJobId(refundId: string, now = Date.now()): string {
  return `refund-${refundId}-${Math.floor(now / REQUEUE_WINDOW_MS)}`;
}

export const JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: "exponential", delay: 250 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 3600 },
};

/** How often the reconcile tick reads new chain facts; it bounds deposit → pending latency. */
export const RECONCILE_EVERY_MS = 100;
