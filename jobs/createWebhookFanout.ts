import type pg from "pg";
import type { Logger } from "pino";
import {
  createWebhookDeliveries,
  deliveryHeadsToRequeue,
  nextPendingDeliveries,
  nextPendingDelivery,
} from "../schema/webhookDeliveries.js";
import type { StatusUpdate } from "../src/events/statusUpdate.js";
import { type EnqueueWebhook, type FindNextDelivery, kickWebhookDelivery } from "./kickWebhookDelivery.js";
import { type RunningNotifier, startNotifier } from "./startNotifier.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";
import { webhookJobId } from "./queues.js";

/** The notifier cursor of the webhook fan-out (the pub/sub notifier has its own). */
export const WEBHOOK_CURSOR = "webhooks";

/**
 * The webhook fan-out of one outbox pass: a delivery row per status update of a key with an enabled endpoint
 * (created once, however often the outbox is replayed after a crash), then the next delivery of each request
 * touched is queued. The rows are the durable record; everything is batched (one insert, one read, pipelined adds).
 */
export function createWebhookFanout(pool: pg.Pool, enqueue: EnqueueWebhook) {
  return async (updates: StatusUpdate[]): Promise<void> => {
    const owed = updates.filter((update) => update.apiKeyId);
    const pairs = await createWebhookDeliveries(
      pool,
      owed.map((update) => ({
        apiKeyId: update.apiKeyId as string,
        statusEventId: update.eventId,
        requestId: update.requestId,
        eventId: `evt_${update.eventId}`,
        body: JSON.stringify(update.body),
      })),
    );
    // Queued even when the rows already existed: a crash may have come between their insert and their job.
    const heads = await nextPendingDeliveries(pool, pairs);
    const now = Date.now();
    await Promise.all(
      heads.map((head) => {
        const job = { deliveryId: head.id, generation: head.generation, attempt: head.attempts };
        return enqueue(job, { jobId: webhookJobId(job), delayMs: Math.max(0, head.nextAttemptAt.getTime() - now) });
      }),
    );
  };
}

// A pending delivery this overdue has lost its job (a flushed queue, a crash between a write and its enqueue);
// the sweep also starts replays (the gateway has no queue), so its period bounds replay latency.
const SWEEP_EVERY_MS = 3_000;
const OVERDUE_MS = 30_000;

/** The webhook notifier over the outbox plus a sweep that queues replays and re-queues deliveries whose job was lost. */
export async function startWebhookFanout(deps: {
  pool: pg.Pool;
  enqueue: EnqueueWebhook;
  logger: Logger;
  sweepEveryMs?: number;
}): Promise<RunningNotifier> {
  const fanout = createWebhookFanout(deps.pool, deps.enqueue);
  const notifier = await startNotifier({
    pool: deps.pool,
    publish: async (update) => fanout([update]),
    publishMany: fanout,
    logger: deps.logger,
    cursorName: WEBHOOK_CURSOR,
  });
  const sweepEveryMs = deps.sweepEveryMs ?? SWEEP_EVERY_MS;
  const sweep = repeatEvery(
    sweepEveryMs,
    async () => {
      // The window in the job id: one sweep job per head and period, never swallowed by an older job of the same attempt.
      const window = `sweep${Math.floor(Date.now() / sweepEveryMs)}`;
      const heads = await deliveryHeadsToRequeue(deps.pool, OVERDUE_MS, 1000);
      const findNext: FindNextDelivery = (pair) => nextPendingDelivery(deps.pool, pair.apiKeyId, pair.requestId);
      for (const head of heads) await kickWebhookDelivery(findNext, deps.enqueue, { ...head, after: window });
    },
    (error) => deps.logger.warn({ err: error }, "webhook sweep failed"),
  );
  return {
    async close() {
      await sweep.close();
      await notifier.close();
    },
  };
}
