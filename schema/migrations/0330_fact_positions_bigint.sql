-- A fact's position (an EVM log index, a Bitcoin vout, a Solana instruction, a TON lt) is bigint: a TON lt or a
-- Solana position can pass 2^31 and 2^53. Ponder's own tables (deposit, fill, withdrawal) keep their integer: only EVM
-- logs are written there, and the reconcile's unions with them (schema/unappliedFacts.ts) widen to bigint.
ALTER TABLE crossfill.deposit_facts ALTER COLUMN log_index TYPE bigint;
ALTER TABLE crossfill.request_deposits ALTER COLUMN log_index TYPE bigint;
ALTER TABLE crossfill.request_fills ALTER COLUMN log_index TYPE bigint;
ALTER TABLE crossfill.fill_facts ALTER COLUMN log_index TYPE bigint;
ALTER TABLE crossfill.withdrawal_facts ALTER COLUMN log_index TYPE bigint;
ALTER TABLE crossfill.refunds ALTER COLUMN deposit_log_index TYPE bigint;
ALTER TABLE crossfill.deposit_sweeps ALTER COLUMN deposit_log_index TYPE bigint;
ALTER TABLE crossfill.unmatched_refunds ALTER COLUMN deposit_log_index TYPE bigint;
