import type { WebhookDelivery } from "../schema/webhookDeliveries.js";
import { type WebhookJob, webhookJobId } from "./queues.js";

export type EnqueueWebhook = (job: WebhookJob, options: { jobId: string; delayMs: number }) => Promise<void>;
/** nextPendingDelivery, alone or batched with other jobs' lookups. */
export type FindNextDelivery = (pair: { apiKeyId: string; requestId: string }) => Promise<WebhookDelivery | undefined>;

/**
 * Queues the next attempt of the earliest pending delivery of (endpoint, request). Only that one is ever queued:
 * a request's later events wait until the earlier one is delivered or given up, so a receiver sees them in order.
 * Called after every write that can change which delivery is next, once it is committed.
 */
export async function kickWebhookDelivery(
  findNext: FindNextDelivery,
  enqueue: EnqueueWebhook,
  target: { apiKeyId: string; requestId: string; after?: string },
  now = Date.now(),
): Promise<void> {
  const next = await findNext({ apiKeyId: target.apiKeyId, requestId: target.requestId });
  if (!next) return;
  const job = { deliveryId: next.id, generation: next.generation, attempt: next.attempts };
  await enqueue(job, {
    jobId: webhookJobId(job, target.after),
    delayMs: Math.max(0, next.nextAttemptAt.getTime() - now),
  });
}
