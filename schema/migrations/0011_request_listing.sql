-- What GET /requests/v3 filters and sorts on, derived from the stored quote so the quote path writes nothing
-- new: symbols (upper-cased: symbol filters are case-insensitive), USD value in, app fees in USD, features.
ALTER TABLE crossfill.requests
  ADD COLUMN currency_in_symbol  text GENERATED ALWAYS AS (upper(quote #>> '{details,currencyIn,currency,symbol}')) STORED,
  ADD COLUMN currency_out_symbol text GENERATED ALWAYS AS (upper(quote #>> '{details,currencyOut,currency,symbol}')) STORED,
  ADD COLUMN amount_usd          numeric NOT NULL GENERATED ALWAYS AS (coalesce((quote #>> '{details,currencyIn,amountUsd}')::numeric, 0)) STORED,
  ADD COLUMN app_fees_usd        numeric NOT NULL GENERATED ALWAYS AS (coalesce((quote #>> '{fees,app,amountUsd}')::numeric, 0)) STORED,
  ADD COLUMN features            text[] NOT NULL GENERATED ALWAYS AS (
    CASE WHEN coalesce(quote #>> '{fees,app,amount}', '0') <> '0' THEN ARRAY['app_fees'] ELSE ARRAY[]::text[] END) STORED;

-- Keyset pagination: every sort key is paired with id, and each filter family leads an index with the default sort.
CREATE INDEX requests_created_idx ON crossfill.requests (created_at, id);
CREATE INDEX requests_updated_idx ON crossfill.requests (updated_at, id);
CREATE INDEX requests_amount_usd_idx ON crossfill.requests (amount_usd, id);
CREATE INDEX requests_user_lower_idx ON crossfill.requests (lower(user_address), created_at, id);
CREATE INDEX requests_recipient_lower_idx ON crossfill.requests (lower(recipient), created_at, id);
CREATE INDEX requests_origin_chain_idx ON crossfill.requests (origin_chain_id, created_at, id);
CREATE INDEX requests_destination_chain_idx ON crossfill.requests (destination_chain_id, created_at, id);
CREATE INDEX requests_status_created_idx ON crossfill.requests (status, created_at, id);
CREATE INDEX requests_api_key_idx ON crossfill.requests (api_key_id, created_at, id);
CREATE INDEX requests_in_symbol_idx ON crossfill.requests (currency_in_symbol, created_at, id);
CREATE INDEX requests_out_symbol_idx ON crossfill.requests (currency_out_symbol, created_at, id);
CREATE INDEX requests_request_type_idx ON crossfill.requests (request_type, created_at, id);
-- term and the targeted hash parameters look transactions up by hash alone.
CREATE INDEX request_deposits_tx_idx ON crossfill.request_deposits (tx_hash);
CREATE INDEX request_fills_tx_idx ON crossfill.request_fills (tx_hash);
CREATE INDEX fill_attempts_tx_idx ON crossfill.fill_attempts (tx_hash);
