-- A nonce mapping is the signing wallet's word about its own transfers (POST /authorize refuses a depositor other
-- than the wallet). Keyed by (wallet, depositor, nonce), a row another wallet signed for someone else's depositor
-- (accepted before that rule) blocks no one's own mapping, and a transfer pays only the mapping its sender signed
-- (wallet = depositor = sender).
ALTER TABLE crossfill.nonce_mappings DROP CONSTRAINT nonce_mappings_pkey;
ALTER TABLE crossfill.nonce_mappings ADD PRIMARY KEY (wallet, depositor, nonce);
