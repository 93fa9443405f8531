-- A claim whose payout the Depository cannot cover (its withdrawal's simulation reverts) is retried with backoff
-- instead of forever: `attempts` counts refused payouts, `next_attempt_at` is when the next may run, `last_error`
-- says why the last one was refused. After the worker's limit the claim ends `failed`, which releases its amount
-- to the wallet's balance (the balance counts every claim but failed ones), to be claimed again.
ALTER TABLE crossfill.app_fee_claims
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN last_error text,
  DROP CONSTRAINT app_fee_claims_status_check,
  ADD CONSTRAINT app_fee_claims_status_check CHECK (status IN ('queued', 'sent', 'paid', 'failed'));
