import { groupByKey } from "./groupByRequest.js";
import type { Queryable } from "./queryable.js";

export type WebhookDeliveryState = "pending" | "delivered" | "failed" | "disabled";

export type WebhookDelivery = {
  id: string;
  apiKeyId: string;
  /** Null for a test event (sendTestWebhook), which no status change made. */
  statusEventId: string | null;
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
  leaseUntil: Date | null;
};

// The statements run for delivery attempts are named (prepared once per connection): planning the claim's CTE
// cost Postgres more CPU than executing it (docs/PERFORMANCE.md, Webhooks).
// Text aliases shadow the columns in ORDER BY: order by the qualified column (numeric), never by the alias.
const COLUMNS = `id::text, api_key_id, status_event_id::text, request_id, event_id, body, state, attempts, generation, last_status_code,
  last_error, last_latency_ms, next_attempt_at, created_at, last_attempt_at, delivered_at, lease_until`;

type Row = {
  id: string;
  api_key_id: string;
  status_event_id: string | null;
  request_id: string;
  event_id: string;
  body: string;
  state: WebhookDeliveryState;
  attempts: number;
  generation: number;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  next_attempt_at: Date;
  created_at: Date;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  lease_until: Date | null;
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
  leaseUntil: row.lease_until,
});

/**
 * The deliveries of status events to their keys' endpoints (the fan-out of one outbox pass), each created once
 * however often the fan-out runs. Returns the (endpoint, request) pairs that have an enabled endpoint, whether
 * their rows were new or already there. Endpoint rows are share-locked: a disable in progress (410) is waited
 * for, so no delivery slips in behind it.
 */
export async function createWebhookDeliveries(
  db: Queryable,
  deliveries: Array<{ apiKeyId: string; statusEventId: string; requestId: string; eventId: string; body: string }>,
): Promise<Array<{ apiKeyId: string; requestId: string }>> {
  if (deliveries.length === 0) return [];
  const { rows } = await db.query<{ api_key_id: string; request_id: string }>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[]) AS i(api_key_id, status_event_id, request_id, event_id, body)),
     endpoints AS (
       SELECT api_key_id FROM crossfill.webhook_endpoints WHERE api_key_id IN (SELECT api_key_id FROM input) AND enabled FOR SHARE),
     inserted AS (
       INSERT INTO crossfill.webhook_deliveries (api_key_id, status_event_id, request_id, event_id, body)
       SELECT i.api_key_id, i.status_event_id, i.request_id, i.event_id, i.body FROM input i JOIN endpoints e USING (api_key_id)
       ORDER BY i.status_event_id
       ON CONFLICT (api_key_id, status_event_id) DO NOTHING RETURNING id)
     SELECT DISTINCT i.api_key_id, i.request_id FROM input i JOIN endpoints e USING (api_key_id)`,
    [
      deliveries.map((d) => d.apiKeyId),
      deliveries.map((d) => d.statusEventId),
      deliveries.map((d) => d.requestId),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.body),
    ],
  );
  return rows.map((row) => ({ apiKeyId: row.api_key_id, requestId: row.request_id }));
}

/** nextPendingDelivery for many (endpoint, request) pairs in one query. */
export async function nextPendingDeliveries(
  db: Queryable,
  pairs: ReadonlyArray<{ apiKeyId: string; requestId: string }>,
): Promise<WebhookDelivery[]> {
  if (pairs.length === 0) return [];
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM (
       SELECT DISTINCT ON (d.api_key_id, d.request_id) d.* FROM crossfill.webhook_deliveries d
         JOIN unnest($1::text[], $2::text[]) AS p(api_key_id, request_id) ON p.api_key_id = d.api_key_id AND p.request_id = d.request_id
        WHERE d.state = 'pending' ORDER BY d.api_key_id, d.request_id, d.status_event_id) webhook_deliveries`,
    [pairs.map((p) => p.apiKeyId), pairs.map((p) => p.requestId)],
  );
  return rows.map(toDelivery);
}

export async function getWebhookDelivery(db: Queryable, id: string): Promise<WebhookDelivery | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM crossfill.webhook_deliveries WHERE id = $1`, [id]);
  return rows[0] && toDelivery(rows[0]);
}

/** The delivery that goes next for (endpoint, request): the earliest still pending, so a request's events arrive in order. */
export async function nextPendingDelivery(
  db: Queryable,
  apiKeyId: string,
  requestId: string,
): Promise<WebhookDelivery | undefined> {
  const { rows } = await db.query<Row>({
    name: "webhook-next-pending",
    text: `SELECT ${COLUMNS} FROM crossfill.webhook_deliveries
      WHERE api_key_id = $1 AND request_id = $2 AND state = 'pending' ORDER BY webhook_deliveries.status_event_id LIMIT 1`,
    values: [apiKeyId, requestId],
  });
  return rows[0] && toDelivery(rows[0]);
}

export type AttemptOutcome = {
  state: WebhookDeliveryState;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  nextAttemptAt: Date | null;
};

export type ClaimedAttempt = {
  delivery: WebhookDelivery;
  url: string;
  headers: Record<string, string>;
  /** The sealed API key; null once the key is revoked. */
  secretCipher: Buffer | null;
  /** Whether the sealed key is bound to its key id (sealed by this version, or re-sealed since). */
  secretBound: boolean;
};

// Ids as Postgres prints them (a job could name "007"); undefined when not a delivery id at all.
const canonicalId = (id: string) => (/^\d{1,18}$/.test(id) ? BigInt(id).toString() : undefined);

/** One attempt of one delivery, as a job names it. */
export type AttemptKey = { deliveryId: string; generation: number; attempt: number };

/**
 * Claims attempts of deliveries for `leaseMs` (longer than one POST can take), with what posting each needs, in
 * one statement for the whole batch; the answer is per key, in order. Undefined where it is not due: it moved on or
 * was replayed since, another job holds it, an earlier event of its request is still pending (ordering), its
 * endpoint is disabled, or the same attempt came earlier in the batch. Two jobs never post the same attempt at once.
 */
export async function claimWebhookAttempts(
  db: Queryable,
  keys: readonly AttemptKey[],
  leaseMs: number,
): Promise<Array<ClaimedAttempt | undefined>> {
  const valid = keys.filter((key) => canonicalId(key.deliveryId) !== undefined);
  if (valid.length === 0) return keys.map(() => undefined);
  const { rows } = await db.query<
    Row & { url: string; headers: Record<string, string>; secret_cipher: Buffer | null; secret_bound: boolean }
  >({
    name: "webhook-claim-attempts",
    text: `WITH claimed AS (
       UPDATE crossfill.webhook_deliveries d SET lease_until = now() + make_interval(secs => $4::double precision / 1000)
         FROM unnest($1::bigint[], $2::integer[], $3::integer[]) AS i(id, generation, attempts)
        WHERE d.id = i.id AND d.generation = i.generation AND d.attempts = i.attempts AND d.state = 'pending'
          AND (d.lease_until IS NULL OR d.lease_until < now())
          AND NOT EXISTS (SELECT 1 FROM crossfill.webhook_deliveries e WHERE e.api_key_id = d.api_key_id AND e.request_id = d.request_id
                             AND e.state = 'pending' AND e.status_event_id < d.status_event_id)
          AND EXISTS (SELECT 1 FROM crossfill.webhook_endpoints w WHERE w.api_key_id = d.api_key_id AND w.enabled)
       RETURNING d.*)
     SELECT x.*, w.url, w.headers, CASE WHEN k.revoked_at IS NULL THEN k.webhook_secret_cipher END AS secret_cipher,
            k.webhook_secret_bound AS secret_bound
       FROM (SELECT ${COLUMNS} FROM claimed) x
       JOIN crossfill.webhook_endpoints w ON w.api_key_id = x.api_key_id
       JOIN crossfill.api_keys k ON k.id = x.api_key_id`,
    values: [
      valid.map((key) => key.deliveryId),
      valid.map((key) => key.generation),
      valid.map((key) => key.attempt),
      leaseMs,
    ],
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return keys.map((key) => {
    const id = canonicalId(key.deliveryId);
    const row = id === undefined ? undefined : byId.get(id);
    // A row is claimed once however often its attempt is in the batch: only the first asker gets it.
    if (!row || row.generation !== key.generation || row.attempts !== key.attempt) return undefined;
    byId.delete(row.id);
    return {
      delivery: toDelivery(row),
      url: row.url,
      headers: row.headers,
      secretCipher: row.secret_cipher,
      secretBound: row.secret_bound,
    };
  });
}

export type AttemptRecord = { deliveryId: string; generation: number; outcome: AttemptOutcome };

/**
 * Records attempts, one statement for the batch; per record, whether it moved. Only a pending delivery of the same
 * generation moves (a replay or a 410 in between wins), and a delivery only once per batch.
 */
export async function recordWebhookAttempts(db: Queryable, records: readonly AttemptRecord[]): Promise<boolean[]> {
  if (records.length === 0) return [];
  const { rows } = await db.query<{ id: string }>({
    name: "webhook-record-attempts",
    text: `WITH moved AS (
      UPDATE crossfill.webhook_deliveries d
        SET attempts = d.attempts + 1, state = i.state, last_status_code = i.status_code, last_error = i.error, last_latency_ms = i.latency_ms,
            last_attempt_at = now(), lease_until = NULL, next_attempt_at = COALESCE(i.next_attempt_at, d.next_attempt_at),
            delivered_at = CASE WHEN i.state = 'delivered' THEN now() ELSE d.delivered_at END
       FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::integer[], $5::text[], $6::integer[], $7::timestamptz[])
            AS i(id, generation, state, status_code, error, latency_ms, next_attempt_at)
      WHERE d.id = i.id AND d.generation = i.generation AND d.state = 'pending'
      RETURNING d.id, d.generation, d.attempts, i.state, i.status_code, i.error, i.latency_ms),
    logged AS (
      INSERT INTO crossfill.webhook_attempts (delivery_id, generation, attempt, outcome, status_code, error, latency_ms)
      SELECT id, generation, attempts, CASE state WHEN 'pending' THEN 'retrying' ELSE state END, status_code, error, latency_ms FROM moved)
    SELECT id::text FROM moved`,
    values: [
      records.map((r) => r.deliveryId),
      records.map((r) => r.generation),
      records.map((r) => r.outcome.state),
      records.map((r) => r.outcome.statusCode),
      records.map((r) => r.outcome.error),
      records.map((r) => r.outcome.latencyMs),
      records.map((r) => r.outcome.nextAttemptAt),
    ],
  });
  const moved = new Set(rows.map((row) => row.id));
  return records.map((record) => moved.delete(canonicalId(record.deliveryId) ?? record.deliveryId));
}

/**
 * Hands claimed attempts back unspent, each due again at its `until` (its endpoint is busy or its breaker open):
 * the lease is dropped and `next_attempt_at` moved, so the sweep does not take it for lost. One statement for the
 * batch; per attempt, whether it was still this claim's (pending, same generation and attempt).
 */
export async function deferWebhookAttempts(
  db: Queryable,
  attempts: ReadonlyArray<AttemptKey & { until: Date }>,
): Promise<boolean[]> {
  if (attempts.length === 0) return [];
  const { rows } = await db.query<{ id: string }>({
    name: "webhook-defer-attempts",
    text: `UPDATE crossfill.webhook_deliveries d SET lease_until = NULL, next_attempt_at = i.until
       FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::timestamptz[]) AS i(id, generation, attempts, until)
      WHERE d.id = i.id AND d.generation = i.generation AND d.attempts = i.attempts AND d.state = 'pending'
      RETURNING d.id::text`,
    values: [
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.generation),
      attempts.map((a) => a.attempt),
      attempts.map((a) => a.until),
    ],
  });
  const moved = new Set(rows.map((row) => row.id));
  return attempts.map((a) => moved.delete(canonicalId(a.deliveryId) ?? a.deliveryId));
}

/**
 * Replay: the delivery is owed again from its first attempt, under a new generation; undefined when not the key's.
 * The gateway has no queue: the worker's sweep finds it (a replayed delivery never attempted since) within seconds.
 * An attempt in flight keeps its lease: the replay's first attempt waits for it rather than post alongside it.
 */
export async function replayWebhookDelivery(
  db: Queryable,
  id: string,
  apiKeyId: string,
): Promise<WebhookDelivery | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const { rows } = await db.query<Row>(
    `UPDATE crossfill.webhook_deliveries SET state = 'pending', attempts = 0, generation = generation + 1, next_attempt_at = now(), delivered_at = NULL,
            last_attempt_at = NULL
      WHERE id = $1 AND api_key_id = $2 RETURNING ${COLUMNS}`,
    [id, apiKeyId],
  );
  return rows[0] && toDelivery(rows[0]);
}

/**
 * A test event owed to the key's endpoint (the dashboard's "Send test event"): its own request id `test_<n>`, so
 * it is ordered with nothing else; the worker's sweep starts it. Undefined when the key has no enabled endpoint.
 */
export async function insertTestEventDelivery(
  db: Queryable,
  apiKeyId: string,
  body: (deliveryId: string) => string,
): Promise<WebhookDelivery | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT nextval(pg_get_serial_sequence('crossfill.webhook_deliveries', 'id'))::text AS id
      WHERE EXISTS (SELECT 1 FROM crossfill.webhook_endpoints WHERE api_key_id = $1 AND enabled)`,
    [apiKeyId],
  );
  if (!rows[0]) return undefined;
  const id = rows[0].id;
  const inserted = await db.query<Row>(
    `INSERT INTO crossfill.webhook_deliveries (id, api_key_id, status_event_id, request_id, event_id, body)
     SELECT $1::bigint, api_key_id, NULL, 'test_' || $1::text, 'evt_test_' || $1::text, $3 FROM crossfill.webhook_endpoints
      WHERE api_key_id = $2 AND enabled RETURNING ${COLUMNS}`,
    [id, apiKeyId, body(id)],
  );
  return inserted.rows[0] && toDelivery(inserted.rows[0]);
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
 * enqueue: overdue by `olderThanMs`), or was replayed or is a test event, and not attempted since. Only each pair's head counts: a later
 * event waiting for an earlier one is not overdue.
 */
export async function deliveryHeadsToRequeue(
  db: Queryable,
  olderThanMs: number,
  limit: number,
): Promise<Array<{ apiKeyId: string; requestId: string }>> {
  const { rows } = await db.query<{ api_key_id: string; request_id: string }>(
    `SELECT heads.api_key_id, heads.request_id
       FROM (SELECT DISTINCT ON (d.api_key_id, d.request_id) d.api_key_id, d.request_id, d.next_attempt_at, d.lease_until,
                    d.generation, d.attempts, d.last_attempt_at, d.status_event_id
               FROM crossfill.webhook_deliveries d WHERE d.state = 'pending'
              ORDER BY d.api_key_id, d.request_id, d.status_event_id) heads
       JOIN crossfill.webhook_endpoints e ON e.api_key_id = heads.api_key_id AND e.enabled
      WHERE (heads.lease_until IS NULL OR heads.lease_until < now())
        AND (heads.next_attempt_at < now() - make_interval(secs => $1::double precision / 1000)
             OR ((heads.generation > 0 OR heads.status_event_id IS NULL) AND heads.attempts = 0 AND heads.last_attempt_at IS NULL))
      LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((row) => ({ apiKeyId: row.api_key_id, requestId: row.request_id }));
}

export type WebhookAttemptOutcome = "delivered" | "retrying" | "failed" | "disabled";

export type WebhookAttempt = {
  deliveryId: string;
  generation: number;
  attempt: number;
  outcome: WebhookAttemptOutcome;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
  attemptedAt: Date;
};

/** Every attempt of the given deliveries, oldest first, one list per id in the order given (the GraphQL delivery log's loader). */
export async function webhookAttemptsOf(db: Queryable, deliveryIds: readonly string[]): Promise<WebhookAttempt[][]> {
  const { rows } = await db.query<{
    delivery_id: string;
    generation: number;
    attempt: number;
    outcome: WebhookAttemptOutcome;
    status_code: number | null;
    error: string | null;
    latency_ms: number | null;
    attempted_at: Date;
  }>(
    `SELECT delivery_id::text, generation, attempt, outcome, status_code, error, latency_ms, attempted_at
       FROM crossfill.webhook_attempts WHERE delivery_id = ANY($1::bigint[]) ORDER BY delivery_id, generation, attempt`,
    [deliveryIds],
  );
  const attempts = rows.map((row) => ({
    deliveryId: row.delivery_id,
    generation: row.generation,
    attempt: row.attempt,
    outcome: row.outcome,
    statusCode: row.status_code,
    error: row.error,
    latencyMs: row.latency_ms,
    attemptedAt: row.attempted_at,
  }));
  return groupByKey(deliveryIds, attempts, (attempt) => attempt.deliveryId);
}
