-- A fill that is not mined is re-sent with higher fees on the same nonce, and finally replaced by a
-- cancellation (a zero transfer to the solver) so its nonce is spent before the deposit is refunded.
ALTER TABLE crossfill.fill_attempts ADD COLUMN sent_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE crossfill.fill_attempts ADD COLUMN bumps integer NOT NULL DEFAULT 0;
ALTER TABLE crossfill.fill_attempts ADD COLUMN previous_tx_hashes text[] NOT NULL DEFAULT '{}';
ALTER TABLE crossfill.fill_attempts ADD COLUMN cancel_tx_hash text;
ALTER TABLE crossfill.fill_attempts ADD COLUMN cancel_raw_tx text;
