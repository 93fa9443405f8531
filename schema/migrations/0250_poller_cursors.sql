-- Poller sources read cursor pages (indexers/poller/pollerSource.ts): a chain that skips slots, an account read by
-- (lt, hash) and a time-ordered ledger have no gapless block heights. Each row of poller_blocks is now a cursor the
-- loop kept: `height` its position in the chain's order (a block height, a slot, an lt, a ledger time), `cursor`
-- what the source reads on from (opaque to the loop), `block_hash` the block's hash when the cursor stands at a block.
-- A block walk's cursor is its block's hash: the rows written before keep working as they are.
ALTER TABLE crossfill.poller_blocks ADD COLUMN cursor text;
UPDATE crossfill.poller_blocks SET cursor = block_hash;
ALTER TABLE crossfill.poller_blocks ALTER COLUMN cursor SET NOT NULL, ALTER COLUMN block_hash DROP NOT NULL;
