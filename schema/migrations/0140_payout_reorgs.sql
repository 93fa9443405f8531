-- A payout mined, applied (the request succeeded) and then reorged out of a polled chain (Bitcoin): the applied fill
-- row is deleted with its fact, and each such event is kept on the fill attempt, whose job re-broadcasts the same
-- signed payout until it is mined again (never a second payout: every version spends the same inputs).
ALTER TABLE crossfill.fill_attempts ADD COLUMN payout_reorgs jsonb NOT NULL DEFAULT '[]';
-- The reorg check reads the applied fills of the blocks a poller still keeps (poller_blocks): by chain and height.
CREATE INDEX request_fills_chain_block_idx ON crossfill.request_fills (chain_id, block_number);
-- Payouts reorged out at least once: few, read every reconcile pass.
CREATE INDEX fill_attempts_payout_reorgs_idx ON crossfill.fill_attempts (request_id) WHERE payout_reorgs <> '[]';
