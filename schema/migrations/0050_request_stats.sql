-- requestStats (GraphQL analytics): the fees a quote charged in USD, derived from the stored quote like
-- amount_usd (migration 0011): `relayer` (= relayerGas + relayerService) plus `app`. `gas` is the user's own
-- origin-chain gas and `subsidized` is paid by nobody's fee, so neither is counted.
ALTER TABLE crossfill.requests
  ADD COLUMN fees_usd numeric NOT NULL GENERATED ALWAYS AS (
    coalesce((quote #>> '{fees,relayer,amountUsd}')::numeric, 0) + coalesce((quote #>> '{fees,app,amountUsd}')::numeric, 0)) STORED;

-- A narrow covering index in creation order: a time-window aggregation over every group key and measure reads
-- it index-only instead of the wide rows (quote, order_data, calls), whatever the grouping.
CREATE INDEX requests_stats_idx ON crossfill.requests (created_at)
  INCLUDE (origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, api_key_id, amount_usd, fees_usd, fill_seconds);
