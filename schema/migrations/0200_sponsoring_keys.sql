-- Fee sponsorship is the operator's to grant: only a key marked here (`crossfill sponsors allow <key id>`) may quote
-- with subsidizeFees, whatever its integrator's balance. Existing keys start unmarked.
ALTER TABLE crossfill.api_keys ADD COLUMN sponsors boolean NOT NULL DEFAULT false;
