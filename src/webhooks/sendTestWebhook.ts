import { type WebhookDelivery, insertTestEventDelivery } from "../../schema/webhookDeliveries.js";
import type { Queryable } from "../../schema/queryable.js";
import { InvalidInputError } from "../domain/errors.js";

/** The event name of a test delivery: receivers that act on `request.status.updated` only ignore it. */
export const TEST_WEBHOOK_EVENT = "webhook.test";

/**
 * Owes the key's endpoint a test event (signed and retried like any delivery, in the delivery log with its
 * attempts): `{event: "webhook.test", timestamp, data: {apiKeyId, deliveryId, message}}`. INVALID_INPUT when the
 * key has no enabled endpoint.
 */
export async function sendTestWebhook(db: Queryable, apiKeyId: string, now = Date.now()): Promise<WebhookDelivery> {
  const delivery = await insertTestEventDelivery(db, apiKeyId, (deliveryId) =>
    JSON.stringify({
      event: TEST_WEBHOOK_EVENT,
      timestamp: now,
      data: { apiKeyId, deliveryId, message: "A test event sent from the Crossfill dashboard." },
    }),
  );
  if (!delivery) throw new InvalidInputError("INVALID_INPUT", "this key has no enabled webhook endpoint to test");
  return delivery;
}
