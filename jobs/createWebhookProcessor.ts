import type pg from "pg";
import type { Logger } from "pino";
import {
  type AttemptKey,
  type AttemptOutcome,
  type AttemptRecord,
  claimWebhookAttempts,
  deferWebhookAttempts,
  getWebhookDelivery,
  nextPendingDeliveries,
  recordWebhookAttempts,
} from "../schema/webhookDeliveries.js";
import { disableWebhookEndpoint } from "../schema/webhookEndpoints.js";
import { withTransaction } from "../schema/withTransaction.js";
import { openSecretOrUndefined } from "../src/apiKeys/secretBox.js";
import { HeldElsewhereError } from "../src/domain/errors.js";
import { type WebhookPoster, WEBHOOK_TIMEOUT_MS } from "../src/webhooks/postWebhook.js";
import { signWebhook } from "../src/webhooks/signWebhook.js";
import { WEBHOOK_MAX_RETRIES, WEBHOOK_RETRY_BASE_MS, webhookRetryDelay } from "../src/webhooks/webhookRetryDelay.js";
import { batchPerTick } from "./batchPerTick.js";
import { type EnqueueWebhook, kickWebhookDelivery } from "./kickWebhookDelivery.js";
import { DEFAULT_ENDPOINT_GATE_POLICY, type EndpointGatePolicy, createEndpointGate } from "./createEndpointGate.js";
import type { WebhookJob } from "./queues.js";
import { webhookJobId } from "./queues.js";

export type WebhookDeps = {
  pool: pg.Pool;
  /** Unseals the API key, which is the signing key (spec: HMAC keyed with the API key). */
  serverKey: Buffer;
  poster: WebhookPoster;
  enqueue: EnqueueWebhook;
  logger: Logger;
  /** The first retry's nominal delay; tests shrink it. */
  retryBaseMs?: number;
  /** In-flight cap and circuit breaker per endpoint (WEBHOOK_CONCURRENCY_PER_ENDPOINT, WEBHOOK_BREAKER_*). */
  endpoints?: EndpointGatePolicy;
  now?: () => number;
};

/** The header carrying the delivery's event id: the same on every attempt and replay, for de-duplication. */
export const EVENT_ID_HEADER = "X-Crossfill-Event-Id";
// Longer than one POST can take, so a job only loses its claim by dying.
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 2_000;

/**
 * One attempt of one delivery: POST the stored body, signed, to the endpoint. Any 2xx delivers it; 410 disables
 * the endpoint and drops what it was owed; anything else is retried on the schedule of webhookRetryDelay, after the
 * tenth retry the delivery has failed. When a delivery ends, the request's next event to that endpoint is queued.
 * The jobs running at once share their statements: claims, records and next-delivery reads of one event-loop turn
 * go to Postgres as one statement each (batchPerTick), not one per job. An endpoint with its cap of attempts in flight,
 * or whose breaker is open (createEndpointGate), gets its claimed attempt back unspent and queued for later: one slow
 * or dead receiver holds a few of the worker's slots, never all of them, and loses none of its deliveries.
 */
export function createWebhookProcessor(deps: WebhookDeps) {
  const now = deps.now ?? Date.now;
  const claim = batchPerTick((keys: readonly AttemptKey[]) => claimWebhookAttempts(deps.pool, keys, LEASE_MS));
  const record = batchPerTick((records: readonly AttemptRecord[]) => recordWebhookAttempts(deps.pool, records));
  const defer = batchPerTick((attempts: ReadonlyArray<AttemptKey & { until: Date }>) =>
    deferWebhookAttempts(deps.pool, attempts),
  );
  const gate = createEndpointGate(deps.endpoints ?? DEFAULT_ENDPOINT_GATE_POLICY, now);
  const nextPending = batchPerTick(async (pairs: readonly { apiKeyId: string; requestId: string }[]) => {
    const heads = new Map(
      (await nextPendingDeliveries(deps.pool, pairs)).map((head) => [`${head.apiKeyId}/${head.requestId}`, head]),
    );
    return pairs.map((pair) => heads.get(`${pair.apiKeyId}/${pair.requestId}`));
  });
  return async (job: { data: WebhookJob }): Promise<string> => {
    const { deliveryId, generation, attempt } = job.data;
    const claimed = await claim({ deliveryId, generation, attempt });
    if (!claimed) {
      const current = await getWebhookDelivery(deps.pool, deliveryId);
      // A job killed mid-POST holds its claim until the lease ends: try again then (BullMQ backoff). Anything else
      // (done, replayed, not its turn, endpoint disabled) is queued again by whatever changes it.
      const held =
        current?.state === "pending" &&
        current.generation === generation &&
        current.attempts === attempt &&
        current.leaseUntil !== null &&
        current.leaseUntil.getTime() > Date.now();
      if (held) throw new HeldElsewhereError("attempt held by another job");
      return "not due";
    }
    const { delivery, url, headers: customHeaders, secretCipher: cipher, secretBound } = claimed;
    // Opens only for its own key (or, sealed before secrets were bound, unbound until a worker re-seals it).
    const secret = cipher
      ? openSecretOrUndefined(deps.serverKey, cipher, secretBound ? delivery.apiKeyId : undefined)
      : undefined;
    // The endpoint is the key's URL: a new URL starts with a closed breaker.
    const pass = cipher ? gate.enter(`${delivery.apiKeyId} ${url}`) : undefined;
    if (pass && "waitUntil" in pass) {
      const until = new Date(pass.waitUntil);
      if (!(await defer({ deliveryId, generation, attempt, until }))) return "superseded";
      await deps.enqueue(
        { deliveryId, generation, attempt },
        {
          jobId: webhookJobId({ deliveryId, generation, attempt }, `wait${pass.waitUntil}`),
          delayMs: Math.max(0, pass.waitUntil - now()),
        },
      );
      return `waiting: endpoint ${pass.reason}`;
    }
    let outcome: AttemptOutcome;
    if (!cipher) {
      outcome = { state: "failed", statusCode: null, error: "API key revoked", latencyMs: 0, nextAttemptAt: null };
    } else if (secret === undefined) {
      // Moved from another key's row, or sealed under another server key: never sign with it.
      const error = "the key's sealed signing secret does not open for this key";
      outcome = { state: "failed", statusCode: null, error, latencyMs: 0, nextAttemptAt: null };
    } else {
      const timestamp = Math.floor(now() / 1000);
      const headers = {
        ...customHeaders,
        "X-Signature-Timestamp": String(timestamp),
        "X-Signature-SHA256": signWebhook(secret, timestamp, delivery.body),
        [EVENT_ID_HEADER]: delivery.eventId,
        "X-Crossfill-Delivery-Attempt": String(attempt + 1),
        // A replay may arrive after the request's later events: marked, so receivers do not take it as news.
        ...(generation > 0 ? { "X-Crossfill-Replay": String(generation) } : {}),
      };
      const started = performance.now();
      let response: Awaited<ReturnType<WebhookPoster["post"]>> = { error: "not posted" };
      try {
        response = await deps.poster.post(url, delivery.body, headers);
      } finally {
        pass?.done("statusCode" in response && response.statusCode >= 200 && response.statusCode <= 299);
      }
      const latencyMs = Math.round(performance.now() - started);
      const statusCode = "statusCode" in response ? response.statusCode : null;
      const error =
        "error" in response
          ? response.error
          : statusCode !== null && (statusCode < 200 || statusCode > 299)
            ? `HTTP ${statusCode}`
            : null;
      if (statusCode !== null && statusCode >= 200 && statusCode <= 299)
        outcome = { state: "delivered", statusCode, error: null, latencyMs, nextAttemptAt: null };
      else if (statusCode === 410) outcome = { state: "disabled", statusCode, error, latencyMs, nextAttemptAt: null };
      else if (attempt >= WEBHOOK_MAX_RETRIES)
        outcome = { state: "failed", statusCode, error, latencyMs, nextAttemptAt: null };
      else
        outcome = {
          state: "pending",
          statusCode,
          error,
          latencyMs,
          nextAttemptAt: new Date(now() + webhookRetryDelay(attempt + 1, deps.retryBaseMs ?? WEBHOOK_RETRY_BASE_MS)),
        };
    }
    // A 410 ends the delivery and disables the endpoint in one transaction: no later event of the request can
    // become "next" and be posted in between.
    const recorded =
      outcome.state === "disabled"
        ? await withTransaction(deps.pool, async (client) => {
            const [done] = await recordWebhookAttempts(client, [{ deliveryId, generation, outcome }]);
            if (done) await disableWebhookEndpoint(client, delivery.apiKeyId, "the receiver answered 410 Gone");
            return done;
          })
        : await record({ deliveryId, generation, outcome });
    if (!recorded) return "superseded";
    if (outcome.state === "disabled") {
      deps.logger.warn({ apiKeyId: delivery.apiKeyId, deliveryId }, "webhook endpoint disabled: 410 Gone");
      return "disabled";
    }
    if (outcome.state === "pending") {
      const next = { deliveryId, generation, attempt: attempt + 1 };
      await deps.enqueue(next, {
        jobId: webhookJobId(next),
        delayMs: Math.max(0, (outcome.nextAttemptAt as Date).getTime() - now()),
      });
      return `retry ${attempt + 1} queued`;
    }
    await kickWebhookDelivery(
      nextPending,
      deps.enqueue,
      { apiKeyId: delivery.apiKeyId, requestId: delivery.requestId, after: deliveryId },
      now(),
    );
    return outcome.state;
  };
}
