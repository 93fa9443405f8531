-- A Bitcoin fill spends outputs, not an account nonce: its fill attempt stores no nonce (NULL). The unique key on
-- (chain_id, solver, nonce) still holds EVM nonces apart; NULLs never collide.
ALTER TABLE crossfill.fill_attempts ALTER COLUMN nonce DROP NOT NULL;
