import type { Queryable } from "./requests.js";

export type WebhookDeliveryState = "pending" | "delivered" | "failed" | "disabled";

export type WebhookDelivery = {
  id: string;
  apiKeyId: string;
  statusEventId: string;
  requestId: string;
  eventId: string;
  body: string;
  state: WebhookDeliveryState;
  attempts: number;
  generation: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  nextAttemptAt: Date;
  createdAt: Date;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
};

// Text aliases shadow the columns in ORDER BY: order by the qualified column (numeric), never by the alias.
const COLUMNS = `id::text, api_key_id, status_event_id::text, request_id, event_id, body, state, attempts, generation, last_status_code,
  last_error, last_latency_ms, next_attempt_at, created_at, last_attempt_at, delivered_at`;

type Row = {
  id: string; api_key_id: string; status_event_id: string; request_id: string; event_id: string; body: string; state: WebhookDeliveryState;
  attempts: number; generation: number; last_status_code: number | null; last_error: string | null; last_latency_ms: number | null;
  next_attempt_at: Date; created_at: Date; last_attempt_at: Date | null; delivered_at: Date | null;
};

const toDelivery = (row: Row): WebhookDelivery => ({
  id: row.id,
  apiKeyId: row.api_key_id,
  statusEventId: row.status_event_id,
  requestId: row.request_id,
  eventId: row.event_id,
  body: row.body,
  state: row.state,
  attempts: row.attempts,
  generation: row.generation,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastLatencyMs: row.last_latency_ms,
  nextAttemptAt: row.next_attempt_at,
  createdAt: row.created_at,
  lastAttemptAt: row.last_attempt_at,
  deliveredAt: row.delivered_at,
});

/**
 * The delivery of one status event to the key's endpoint, created once whatever how often the fan-out runs
 * (undefined when the key has no enabled endpoint). The endpoint row is share-locked: a disable in progress
 * (410) is waited for, so no delivery slips in behind it.
 */
export async function createWebhookDelivery(
  db: Queryable,
  delivery: { apiKeyId: string; statusEventId: string; requestId: string; eventId: string; body: string },
): Promise<{ created: boolean } | undefined> {
  const { rows } = await db.query<{ created: boolean }>(
    `WITH endpoint AS (SELECT api_key_id FROM crossfill.webhook_endpoints WHERE api_key_id = $1 AND enabled FOR SHARE),
     inserted AS (
       INSERT INTO crossfill.webhook_deliveries (api_key_id, status_event_id, request_id, event_id, body)
       SELECT api_key_id, $2, $3, $4, $5 FROM endpoint
       ON CONFLICT (api_key_id, status_event_id) DO NOTHING RETURNING id)
     SELECT EXISTS (SELECT 1 FROM inserted) AS created FROM endpoint`,
    [delivery.apiKeyId, delivery.statusEventId, delivery.requestId, delivery.eventId, delivery.body],
  );
  return rows[0];
}

export async function getWebhookDelivery(db: Queryable, id: string): Promise<WebhookDelivery | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM crossfill.webhook_deliveries WHERE id = $1`, [id]);
  return rows[0] && toDelivery(rows[0]);
}

/** The delivery that goes next for (endpoint, request): the earliest still pending, so a request's events arrive in order. */
export async function nextPendingDelivery(db: Queryable, apiKeyId: string, requestId: string): Promise<WebhookDelivery | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM crossfill.webhook_deliveries
      WHERE api_key_id = $1 AND request_id = $2 AND state = 'pending' ORDER BY webhook_deliveries.status_event_id LIMIT 1`,
    [apiKeyId, requestId],
  );
  return rows[0] && toDelivery(rows[0]);
}

export type AttemptOutcome = {
  state: WebhookDeliveryState;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  nextAttemptAt: Date | null;
};

/**
 * Claims attempt `attempt` of a pending delivery for `leaseMs` (longer than one POST can take): undefined when it
 * moved on, another job holds it, or it was replayed since. Two jobs never post the same attempt at once.
 */
export async function claimWebhookAttempt(db: Queryable, id: string, generation: number, attempt: number, leaseMs: number): Promise<WebhookDelivery | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await db.query<Row>(
    `UPDATE crossfill.webhook_deliveries SET lease_until = now() + make_interval(secs => $4::double precision / 1000)
      WHERE id = $1 AND generation = $2 AND attempts = $3 AND state = 'pending' AND (lease_until IS NULL OR lease_until < now())
      RETURNING ${COLUMNS}`,
    [id, generation, attempt, leaseMs],
  );
  return rows[0] && toDelivery(rows[0]);
}

/** Gives a claim back without an attempt (not this delivery's turn, or its endpoint is switched off). */
export async function releaseWebhookClaim(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE crossfill.webhook_deliveries SET lease_until = NULL WHERE id = $1", [id]);
}

/** Records one attempt; only a pending delivery of the same generation moves (a replay or a 410 in between wins). */
export async function recordWebhookAttempt(db: Queryable, id: string, generation: number, outcome: AttemptOutcome): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.webhook_deliveries
        SET attempts = attempts + 1, state = $3, last_status_code = $4, last_error = $5, last_latency_ms = $6,
            last_attempt_at = now(), lease_until = NULL, next_attempt_at = COALESCE($7, next_attempt_at),
            delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END
      WHERE id = $1 AND generation = $2 AND state = 'pending'`,
    [id, generation, outcome.state, outcome.statusCode, outcome.error, outcome.latencyMs, outcome.nextAttemptAt],
  );
  return result.rowCount === 1;
}

/**
 * Replay: the delivery is owed again from its first attempt, under a new generation; undefined when not the key's.
 * The gateway has no queue: the worker's sweep finds it (a replayed delivery never attempted since) within seconds.
 */
export async function replayWebhookDelivery(db: Queryable, id: string, apiKeyId: string): Promise<WebhookDelivery | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await db.query<Row>(
    `UPDATE crossfill.webhook_deliveries SET state = 'pending', attempts = 0, generation = generation + 1, next_attempt_at = now(), delivered_at = NULL, lease_until = NULL,
            last_attempt_at = NULL
      WHERE id = $1 AND api_key_id = $2 RETURNING ${COLUMNS}`,
    [id, apiKeyId],
  );
  return rows[0] && toDelivery(rows[0]);
}

/** The delivery log of a key, newest first, keyset-paginated on id. */
export async function listWebhookDeliveries(
  db: Queryable,
  options: { apiKeyId: string; beforeId?: string; state?: WebhookDeliveryState; limit: number },
): Promise<WebhookDelivery[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM crossfill.webhook_deliveries
      WHERE api_key_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::text IS NULL OR state = $3)
      ORDER BY webhook_deliveries.id DESC LIMIT $4`,
    [options.apiKeyId, options.beforeId ?? null, options.state ?? null, options.limit],
  );
  return rows.map(toDelivery);
}

/**
 * (endpoint, request) pairs whose next delivery lost its job (a flushed queue, a crash between a write and its
 * enqueue: overdue by `olderThanMs`) or was replayed and not attempted since. Only each pair's head counts: a later
 * event waiting for an earlier one is not overdue.
 */
export async function deliveryHeadsToRequeue(db: Queryable, olderThanMs: number, limit: number): Promise<Array<{ apiKeyId: string; requestId: string }>> {
  const { rows } = await db.query<{ api_key_id: string; request_id: string }>(
    `SELECT heads.api_key_id, heads.request_id
       FROM (SELECT DISTINCT ON (d.api_key_id, d.request_id) d.api_key_id, d.request_id, d.next_attempt_at, d.lease_until,
                    d.generation, d.attempts, d.last_attempt_at
               FROM crossfill.webhook_deliveries d WHERE d.state = 'pending'
              ORDER BY d.api_key_id, d.request_id, d.status_event_id) heads
       JOIN crossfill.webhook_endpoints e ON e.api_key_id = heads.api_key_id AND e.enabled
      WHERE (heads.lease_until IS NULL OR heads.lease_until < now())
        AND (heads.next_attempt_at < now() - make_interval(secs => $1::double precision / 1000)
             OR (heads.generation > 0 AND heads.attempts = 0 AND heads.last_attempt_at IS NULL))
      LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((row) => ({ apiKeyId: row.api_key_id, requestId: row.request_id }));
}
