-- A fill the node keeps refusing is given up on (its nonce spent on a cancellation) after a few tries.
ALTER TABLE crossfill.fill_attempts ADD COLUMN broadcast_failures integer NOT NULL DEFAULT 0;
ALTER TABLE crossfill.fill_attempts ADD COLUMN last_broadcast_error text;
