-- What a deposit entitles the recipient to is decided once, when the deposit is applied (a late deposit
-- may be re-priced), and the fill pays exactly that.
ALTER TABLE crossfill.requests ADD COLUMN late_payment_slippage_bps integer CHECK (late_payment_slippage_bps BETWEEN 0 AND 10000);
ALTER TABLE crossfill.requests ADD COLUMN fill_amount numeric(78,0) CHECK (fill_amount > 0);
