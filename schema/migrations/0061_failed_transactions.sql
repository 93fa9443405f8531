-- The destination transaction a failed fill would have sent, or sent and saw revert: the v3 record's
-- failedTxHash, failedTxBlockNumber (both null when it was refused in simulation) and failedCallData.
ALTER TABLE crossfill.requests ADD COLUMN failed_tx_hash text;
ALTER TABLE crossfill.requests ADD COLUMN failed_tx_block_number bigint;
ALTER TABLE crossfill.requests ADD COLUMN failed_call_data jsonb;
