-- A deposit is applied per block it was mined in: one reorged out and mined again elsewhere is a new fact,
-- refunded rather than lost. `reorg` holds the detection context the spec shows in inTxs[].metadata.reorg.
ALTER TABLE crossfill.request_deposits ADD COLUMN block_hash text NOT NULL DEFAULT '';
ALTER TABLE crossfill.request_deposits ADD COLUMN reorg jsonb;
ALTER TABLE crossfill.request_deposits DROP CONSTRAINT request_deposits_pkey;
ALTER TABLE crossfill.request_deposits ADD PRIMARY KEY (chain_id, tx_hash, log_index, block_hash);
