-- Webhooks: at most one endpoint per API key (spec, Authentication 6). The signing secret is the key itself,
-- kept sealed in api_keys; nothing secret is stored here (custom headers are the integrator's own values).
CREATE TABLE crossfill.webhook_endpoints (
  api_key_id      text PRIMARY KEY REFERENCES crossfill.api_keys (id),
  url             text NOT NULL,
  enabled         boolean NOT NULL DEFAULT true,
  headers         jsonb NOT NULL DEFAULT '{}',
  disabled_reason text,
  disabled_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- One delivery per (endpoint, status event): the durable record of what is owed to the receiver. The unique
-- key makes the fan-out idempotent; `generation` grows on each replay so the replay's jobs get fresh ids.
CREATE TABLE crossfill.webhook_deliveries (
  id               bigserial PRIMARY KEY,
  api_key_id       text NOT NULL REFERENCES crossfill.webhook_endpoints (api_key_id),
  status_event_id  bigint NOT NULL REFERENCES crossfill.status_events (id),
  request_id       text NOT NULL,
  event_id         text NOT NULL,
  -- The exact body posted on every attempt and replay (as text: the signature covers these bytes).
  body             text NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'disabled')),
  attempts         integer NOT NULL DEFAULT 0,
  generation       integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error       text,
  last_latency_ms  integer,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_attempt_at  timestamptz,
  delivered_at     timestamptz,
  -- Claimed by the job posting it: a second job for the same attempt (a re-queue, a stalled job) waits it out.
  lease_until      timestamptz,
  UNIQUE (api_key_id, status_event_id)
);
-- Ordering: the earliest pending delivery of a request to an endpoint goes first.
CREATE INDEX webhook_deliveries_pending_idx ON crossfill.webhook_deliveries (api_key_id, request_id, status_event_id) WHERE state = 'pending';
-- The delivery log, newest first per key.
CREATE INDEX webhook_deliveries_log_idx ON crossfill.webhook_deliveries (api_key_id, id DESC);
-- The sweep re-queues overdue pending deliveries whose job was lost.
CREATE INDEX webhook_deliveries_due_idx ON crossfill.webhook_deliveries (next_attempt_at) WHERE state = 'pending';
