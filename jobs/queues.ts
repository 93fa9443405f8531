import type { JobsOptions } from "bullmq";

/** Queue names, payloads, job ids and options: the contract between whoever enqueues and the workers. */
export const QUEUES = {
  reconcile: "crossfill-reconcile",
  fill: "crossfill-fill",
  refund: "crossfill-refund",
  webhook: "crossfill-webhook",
  appFeeClaim: "crossfill-app-fee-claim",
  sweep: "crossfill-sweep",
  unmatchedRefund: "crossfill-unmatched-refund",
} as const;

export type ReconcileJob = Record<string, never>;
export type FillJob = { requestId: string };
export type RefundJob = { refundId: string };
export type AppFeeClaimJob = { claimId: string };
/** A deposit-address deposit to sweep to the depository (its outpoint and request; the position in decimal). */
export type SweepJob = { chainId: number; txHash: string; position: string; requestId: string };
/** A deposit to the depository that named no request, to refund (its outpoint; schema/unmatchedRefunds). */
export type UnmatchedRefundJob = { chainId: number; txHash: string; position: string };
/** One attempt of one webhook delivery: ids only (the body and the signing key are read from Postgres). */
export type WebhookJob = { deliveryId: string; generation: number; attempt: number };

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

/** A refund put off until its deposit reaches a block: one job per refund and target block. */
export function delayedRefundJobId(refundId: string, key: string): string {
  return `refund-${refundId}-at-${key}`;
}

export function appFeeClaimJobId(claimId: string, now = Date.now()): string {
  return `app-fee-claim-${claimId}-${Math.floor(now / REQUEUE_WINDOW_MS)}`;
}

export function sweepJobId(job: SweepJob, now = Date.now()): string {
  return `sweep-${job.chainId}-${job.txHash}-${job.position}-${Math.floor(now / REQUEUE_WINDOW_MS)}`;
}

export function unmatchedRefundJobId(job: UnmatchedRefundJob, now = Date.now()): string {
  return `unmatched-refund-${job.chainId}-${job.txHash}-${job.position}-${Math.floor(now / REQUEUE_WINDOW_MS)}`;
}

export const JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: "exponential", delay: 250 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 3600 },
};

/** How often the reconcile tick reads new chain facts; it bounds deposit → pending latency. */
export const RECONCILE_EVERY_MS = 100;

/**
 * One job per attempt of a delivery; `after` names the delivery whose end queued it, so that kick is never
 * swallowed by a job of the same attempt that already ran. Completed webhook jobs are removed at once for the same reason.
 */
export function webhookJobId(job: WebhookJob, after?: string): string {
  return `webhook-${job.deliveryId}-g${job.generation}-a${job.attempt}${after ? `-after-${after}` : ""}`;
}

// The delivery's retries are its own (webhookRetryDelay, in Postgres); BullMQ retries only a job that threw
// (database down, attempt held by a job killed mid-POST until its lease ends).
export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  attempts: 20,
  backoff: { type: "fixed", delay: 2_000 },
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600 },
};
