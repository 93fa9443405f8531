-- The perps exchange's poller finds the solver's stored fill of a ledger transfer by (chain, signer, nonce).
CREATE INDEX fill_attempts_signer_nonce_idx ON crossfill.fill_attempts (chain_id, solver, nonce);
