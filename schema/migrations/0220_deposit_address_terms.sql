-- An expired, unpaid deposit address is regenerated only for a quote of the same API key on identical terms: `terms`
-- is a digest of the quote's key and every term it was made with (src/quote/depositAddressTerms.ts). Rows without one
-- (keyless quotes, and every row from before) are never regenerated: those quotes get a fresh address.
ALTER TABLE crossfill.request_deposit_addresses ADD COLUMN terms text;
CREATE INDEX request_deposit_addresses_terms_idx ON crossfill.request_deposit_addresses (chain_id, terms)
  WHERE superseded_by IS NULL AND terms IS NOT NULL;
