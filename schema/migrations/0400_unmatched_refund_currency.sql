-- An unmatched refund pays back the currency its deposit paid: a Solana deposit may pay an SPL token (devnet USDC),
-- where Bitcoin's paid BTC. Copied from the deposit fact when the refund is queued; rows queued before this
-- migration take it from their fact (NULL only where the fact is gone: such a refund is dropped, never sent).
ALTER TABLE crossfill.unmatched_refunds ADD COLUMN currency text;
UPDATE crossfill.unmatched_refunds u SET currency = d.currency
  FROM crossfill.deposit_facts d
 WHERE d.chain_id = u.chain_id AND d.tx_hash = u.deposit_tx_hash AND d.log_index = u.deposit_log_index;
