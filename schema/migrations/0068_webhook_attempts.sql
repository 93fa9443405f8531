-- The delivery log keeps every attempt, not only the last: what each answered and how long it took, per
-- replay generation. Written in the statement that records the attempt (schema/webhookDeliveries.ts).
CREATE TABLE crossfill.webhook_attempts (
  delivery_id  bigint NOT NULL REFERENCES crossfill.webhook_deliveries (id) ON DELETE CASCADE,
  generation   integer NOT NULL,
  attempt      integer NOT NULL,
  -- delivered, retrying (a retry is scheduled), failed (the last retry), disabled (410 Gone)
  outcome      text NOT NULL,
  status_code  integer,
  error        text,
  latency_ms   integer,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (delivery_id, generation, attempt)
);
