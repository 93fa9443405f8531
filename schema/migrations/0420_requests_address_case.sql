-- Request listings and search compare wallets and currencies as stored addresses (schema/storedAddress.ts,
-- storedAddressSql): EVM hex case-blind, base58 (Solana, Bitcoin legacy) exactly, since its case is part of the
-- address. These indexes serve those comparisons, led by the expression and followed by the default sort; they
-- replace the lower() ones of 0011 and 0013, which folded base58 case variants together.
CREATE INDEX requests_user_address_idx ON crossfill.requests
  ((CASE WHEN left(user_address, 2) = '0x' THEN lower(user_address) ELSE user_address END), created_at, id);
CREATE INDEX requests_recipient_address_idx ON crossfill.requests
  ((CASE WHEN left(recipient, 2) = '0x' THEN lower(recipient) ELSE recipient END), created_at, id);
CREATE INDEX requests_origin_currency_address_idx ON crossfill.requests
  ((CASE WHEN left(origin_currency, 2) = '0x' THEN lower(origin_currency) ELSE origin_currency END), created_at, id);
CREATE INDEX requests_destination_currency_address_idx ON crossfill.requests
  ((CASE WHEN left(destination_currency, 2) = '0x' THEN lower(destination_currency) ELSE destination_currency END),
   created_at, id);
DROP INDEX crossfill.requests_user_lower_idx;
DROP INDEX crossfill.requests_recipient_lower_idx;
DROP INDEX crossfill.requests_origin_currency_idx;
DROP INDEX crossfill.requests_destination_currency_idx;
