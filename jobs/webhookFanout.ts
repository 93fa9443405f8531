import type pg from "pg";
import type { Logger } from "pino";
import { createWebhookDelivery, overdueDeliveryHeads } from "../schema/webhookDeliveries.js";
import type { StatusUpdate } from "../src/events/statusUpdate.js";
import { type EnqueueWebhook, kickWebhookDelivery } from "./kickWebhookDelivery.js";
import { type RunningNotifier, startNotifier } from "./notify.js";

/** The notifier cursor of the webhook fan-out (the pub/sub notifier has its own). */
export const WEBHOOK_CURSOR = "webhooks";

/**
 * The webhook fan-out of one status update: a delivery row for the key's enabled endpoint (created once, however
 * often the outbox is replayed after a crash), then its first attempt queued. The row is the durable record.
 */
export function createWebhookFanout(pool: pg.Pool, enqueue: EnqueueWebhook) {
  return async (update: StatusUpdate): Promise<void> => {
    if (!update.apiKeyId) return;
    const delivery = await createWebhookDelivery(pool, {
      apiKeyId: update.apiKeyId,
      statusEventId: update.eventId,
      requestId: update.requestId,
      eventId: `evt_${update.eventId}`,
      body: JSON.stringify(update.body),
    });
    // Kicked even when the row already existed: a crash may have come between its insert and its job.
    if (delivery) await kickWebhookDelivery(pool, enqueue, { apiKeyId: update.apiKeyId, requestId: update.requestId });
  };
}

// A pending delivery this overdue has lost its job (a flushed queue, a crash between a write and its enqueue).
const SWEEP_EVERY_MS = 15_000;
const OVERDUE_MS = 30_000;

/** The webhook notifier over the outbox plus a sweep that re-queues deliveries whose job was lost. */
export async function startWebhookFanout(deps: { pool: pg.Pool; enqueue: EnqueueWebhook; logger: Logger; sweepEveryMs?: number }): Promise<RunningNotifier> {
  const notifier = await startNotifier({ pool: deps.pool, publish: createWebhookFanout(deps.pool, deps.enqueue), logger: deps.logger, cursorName: WEBHOOK_CURSOR });
  let sweeping: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    sweeping = (async () => {
      const heads = await overdueDeliveryHeads(deps.pool, OVERDUE_MS, 1000);
      for (const head of heads) await kickWebhookDelivery(deps.pool, deps.enqueue, { ...head, after: `sweep${Math.floor(Date.now() / SWEEP_EVERY_MS)}` });
    })().catch((error) => deps.logger.warn({ err: error }, "webhook sweep failed"));
  }, deps.sweepEveryMs ?? SWEEP_EVERY_MS);
  return {
    async close() {
      clearInterval(timer);
      await notifier.close();
      await sweeping;
    },
  };
}
