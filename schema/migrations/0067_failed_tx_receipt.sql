-- A fill mined and reverted is listed in the record's outTxs with status failure: its block time and fee (gasUsed ×
-- effectiveGasPrice, wei) are kept with its hash and block (migration 0061).
ALTER TABLE crossfill.requests ADD COLUMN failed_tx_timestamp bigint, ADD COLUMN failed_tx_fee numeric(78, 0);
