-- Fee sponsorship balances, in USD micro-units, per integrator (the sponsor is the integrator of the quoting key).
-- `fund` rows are the operator's (`crossfill sponsors fund`, may be negative to take funds back); a `draw` is one
-- sponsored request's share, written with its fill (one per request: the key keeps a retried fill from drawing
-- twice). A draw whose request then fails or is refunded no longer counts: the sponsor pays for fills only.
CREATE TABLE crossfill.sponsor_ledger (
  id                bigserial PRIMARY KEY,
  integrator        text NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('fund', 'draw')),
  amount_micro_usd  numeric(78,0) NOT NULL CHECK (kind = 'fund' OR amount_micro_usd >= 0),
  request_id        text REFERENCES crossfill.requests (id),
  note              text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'draw') = (request_id IS NOT NULL))
);
CREATE UNIQUE INDEX sponsor_ledger_draw_idx ON crossfill.sponsor_ledger (request_id) WHERE kind = 'draw';
CREATE INDEX sponsor_ledger_integrator_idx ON crossfill.sponsor_ledger (integrator);
