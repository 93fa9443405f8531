-- What the deposit and fill transactions paid for gas (gasUsed × effectiveGasPrice, wei; an L2's L1 data fee is
-- not included), for the records' inTxs[].fee and outTxs[].fee. Null for facts recorded before this column.
ALTER TABLE crossfill.deposit_facts ADD COLUMN tx_fee numeric(78,0);
ALTER TABLE crossfill.request_deposits ADD COLUMN tx_fee numeric(78,0);
ALTER TABLE crossfill.request_fills ADD COLUMN tx_fee numeric(78,0);
