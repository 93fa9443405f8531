-- What a draw paid in its request's input currency, to the unit, beside the USD it is charged: the total and each
-- fee bucket (execution, swap, relay, app, rent). A sponsored app fee is then matched to the wei with what its
-- recipients earned (crossfill.app_fee_earnings): the sponsor pays the app bucket, the recipients earn it in full.
-- Null on fund rows and on draws written before this migration.
ALTER TABLE crossfill.sponsor_ledger
  ADD COLUMN chain_id bigint,
  ADD COLUMN currency text,
  ADD COLUMN amount numeric(78,0),
  ADD COLUMN components jsonb,
  ADD CONSTRAINT sponsor_ledger_draw_amount_check CHECK (kind = 'draw' OR (amount IS NULL AND components IS NULL));
