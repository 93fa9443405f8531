-- The exchange's poller looks each transfer out of the depository up by hash among the sent refunds (orderOfSentRefund):
-- request refunds have refunds_tx_idx, unmatched ones this.
CREATE INDEX unmatched_refunds_tx_idx ON crossfill.unmatched_refunds (chain_id, tx_hash) WHERE tx_hash IS NOT NULL;
