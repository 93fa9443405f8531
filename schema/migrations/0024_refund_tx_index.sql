-- Request search looks refunds up by transaction hash alone (term, refundTxHash).
CREATE INDEX refunds_tx_hash_idx ON crossfill.refunds (tx_hash) WHERE tx_hash IS NOT NULL;
