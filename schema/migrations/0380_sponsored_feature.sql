-- `features` marks a sponsored request `sponsored`: its quote keeps the sponsor's draw (`sponsor`) only when the
-- sponsor pays something. gas_top_up, fast_fill and gasless_execution are not offered, so never marked.
ALTER TABLE crossfill.requests DROP COLUMN features;
ALTER TABLE crossfill.requests ADD COLUMN features text[] NOT NULL GENERATED ALWAYS AS (
  CASE WHEN coalesce(quote #>> '{fees,app,amount}', '0') <> '0' THEN ARRAY['app_fees'] ELSE ARRAY[]::text[] END
  || CASE WHEN quote ? 'depositAddress' THEN ARRAY['deposit_address'] ELSE ARRAY[]::text[] END
  || CASE WHEN quote ? 'sponsor' THEN ARRAY['sponsored'] ELSE ARRAY[]::text[] END) STORED;
