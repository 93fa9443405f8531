-- Money that moved, or may have, where the service cannot decide on its own: a fill that landed for a request already
-- failed, a refund or app-fee payout whose withdrawal reverted. One row per (kind, subject), so a job that runs again
-- raises it once; an operator reads the open ones (`resolved_at IS NULL`) and resolves them with a note.
CREATE TABLE crossfill.operator_alerts (
  id          bigserial PRIMARY KEY,
  kind        text NOT NULL,
  -- what it is about: a request id, a refund id, an app-fee claim id
  subject     text NOT NULL,
  details     jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolution  text,
  UNIQUE (kind, subject)
);
CREATE INDEX operator_alerts_open_idx ON crossfill.operator_alerts (created_at) WHERE resolved_at IS NULL;
