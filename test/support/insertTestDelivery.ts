import type pg from "pg";
import { createWebhookDeliveries } from "../../schema/webhookDeliveries.js";

/** A `pending` status event of the request and its delivery to the key's endpoint (which must be enabled); its id. */
export async function insertTestDelivery(
  pool: pg.Pool,
  target: { apiKeyId: string; requestId: string; body: string },
): Promise<string> {
  const event = (
    await pool.query<{ id: string }>(
      "INSERT INTO crossfill.status_events (request_id, to_status) VALUES ($1, 'pending') RETURNING id::text",
      [target.requestId],
    )
  ).rows[0];
  await createWebhookDeliveries(pool, [
    {
      apiKeyId: target.apiKeyId,
      statusEventId: event.id,
      requestId: target.requestId,
      eventId: `evt_${event.id}`,
      body: target.body,
    },
  ]);
  const { rows } = await pool.query<{ id: string }>(
    "SELECT id::text FROM crossfill.webhook_deliveries WHERE api_key_id = $1 AND status_event_id = $2",
    [target.apiKeyId, event.id],
  );
  return rows[0].id;
}
