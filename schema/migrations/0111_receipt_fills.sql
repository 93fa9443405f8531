-- A fill recorded from the solver's own receipt when the request succeeds on it (jobs/createReceiptConfirmer.ts),
-- before the indexer's row: every reader of request_fills (GraphQL fills, outTxs, fill_seconds, app fees) sees it at
-- once. `provisional` until the indexed fill with the same (chain, tx, log) confirms it; `block_hash` is the block
-- its receipt named (the reorg check asks the node for it again); `disagreement` is why the indexer's view differs
-- (another fill indexed, none after the wait, the receipt's block reorged out), kept once resolved as what happened,
-- shown as the outTx's metadata.
ALTER TABLE crossfill.request_fills
  ADD COLUMN provisional boolean NOT NULL DEFAULT false,
  ADD COLUMN block_hash text,
  ADD COLUMN disagreement jsonb;

-- The reorg check (jobs/checkReceiptFills.ts) reads the recent fills recorded from receipts.
CREATE INDEX request_fills_receipt_idx ON crossfill.request_fills (created_at) WHERE block_hash IS NOT NULL;
