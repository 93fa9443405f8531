-- Fixed-bps oracle pricing is the operator's to set (`crossfill keys oracle-pricing <key id> <bps>`): a key with bps
-- here is quoted at the oracle rate less them, instead of the normal fees. NULL: the normal pricing (every key so far).
ALTER TABLE crossfill.api_keys ADD COLUMN oracle_pricing_bps integer
  CHECK (oracle_pricing_bps >= 0 AND oracle_pricing_bps < 10000);
