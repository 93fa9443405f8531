import type { Queryable } from "./queryable.js";

export type WebhookEndpoint = {
  apiKeyId: string;
  url: string;
  enabled: boolean;
  headers: Record<string, string>;
  disabledReason: string | null;
  disabledAt: Date | null;
  updatedAt: Date;
};

type Row = {
  api_key_id: string;
  url: string;
  enabled: boolean;
  headers: Record<string, string>;
  disabled_reason: string | null;
  disabled_at: Date | null;
  updated_at: Date;
};

const COLUMNS = "api_key_id, url, enabled, headers, disabled_reason, disabled_at, updated_at";

const toEndpoint = (row: Row): WebhookEndpoint => ({
  apiKeyId: row.api_key_id,
  url: row.url,
  enabled: row.enabled,
  headers: row.headers,
  disabledReason: row.disabled_reason,
  disabledAt: row.disabled_at,
  updatedAt: row.updated_at,
});

/** Creates or replaces the key's one endpoint; (re-)enabling clears a previous disable reason. */
export async function upsertWebhookEndpoint(
  db: Queryable,
  endpoint: { apiKeyId: string; url: string; enabled: boolean; headers: Record<string, string> },
): Promise<WebhookEndpoint> {
  const { rows } = await db.query<Row>(
    `INSERT INTO crossfill.webhook_endpoints (api_key_id, url, enabled, headers, disabled_reason, disabled_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $3 THEN NULL ELSE 'disabled by the owner' END, CASE WHEN $3 THEN NULL ELSE now() END)
     ON CONFLICT (api_key_id) DO UPDATE SET url = EXCLUDED.url, enabled = EXCLUDED.enabled, headers = EXCLUDED.headers,
       disabled_reason = EXCLUDED.disabled_reason, disabled_at = EXCLUDED.disabled_at, updated_at = now()
     RETURNING ${COLUMNS}`,
    [endpoint.apiKeyId, endpoint.url, endpoint.enabled, JSON.stringify(endpoint.headers)],
  );
  return toEndpoint(rows[0]);
}

export async function getWebhookEndpoint(db: Queryable, apiKeyId: string): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM crossfill.webhook_endpoints WHERE api_key_id = $1`, [
    apiKeyId,
  ]);
  return rows[0] && toEndpoint(rows[0]);
}

export async function listWebhookEndpoints(db: Queryable): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM crossfill.webhook_endpoints ORDER BY api_key_id`);
  return rows.map(toEndpoint);
}

/**
 * The receiver asked to stop (410 Gone): the endpoint is disabled and whatever it was still owed is dropped.
 * Two statements on purpose: the first waits for fan-outs holding the endpoint (createWebhookDeliveries share-locks
 * it), and the second's fresh snapshot then sees the deliveries they inserted. Run it in a transaction.
 */
export async function disableWebhookEndpoint(db: Queryable, apiKeyId: string, reason: string): Promise<void> {
  await db.query(
    "UPDATE crossfill.webhook_endpoints SET enabled = false, disabled_reason = $2, disabled_at = now(), updated_at = now() WHERE api_key_id = $1",
    [apiKeyId, reason],
  );
  await db.query(
    "UPDATE crossfill.webhook_deliveries SET state = 'disabled', lease_until = NULL WHERE api_key_id = $1 AND state = 'pending'",
    [apiKeyId],
  );
}
