-- requestStats (GraphQL analytics) answers whole UTC days from these rollups instead of the raw rows; the
-- window's partial days at either edge still come from crossfill.requests (schema/requestStats.ts). Keyed by the
-- dimensions a stats grouping names (HOUR aside), with the listing's column names so its WHERE conditions on
-- them apply unchanged; NULL stays NULL and equals NULL in the unique key.
--
-- Why daily and without api_key_id (docs/PERFORMANCE.md, Analytics): at 1M requests a year (~114 an hour) an
-- hourly rollup by every dimension has 805k rows of 1M (the histogram 773k of 780k) and read 2× slower than the
-- raw rows; by day without the key it is 80k rows (the histogram 249k). HOUR groupings (31 days at most) and
-- filters on anything else, the API key included, read the raw rows.
CREATE TABLE crossfill.request_stats_daily (
  day                  timestamptz NOT NULL,
  origin_chain_id      bigint NOT NULL,
  destination_chain_id bigint NOT NULL,
  status               text NOT NULL,
  currency_in_symbol   text,
  fail_reason          text,
  n                    bigint NOT NULL,
  -- sum(amount_usd) and sum(fees_usd) at the scale the raw sum prints with, the largest scale of the rows; so
  -- that it can drop when a row leaves, how many rows have each scale (element scale + 1).
  volume               numeric NOT NULL,
  volume_scales        bigint[] NOT NULL,
  fees                 numeric NOT NULL,
  fees_scales          bigint[] NOT NULL,
  CONSTRAINT request_stats_daily_key UNIQUE NULLS NOT DISTINCT
    (day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason)
);

-- The fill-time histogram: requests with a fill time per whole second, for percentile_cont's exact rule.
CREATE TABLE crossfill.request_fill_stats_daily (
  day                  timestamptz NOT NULL,
  origin_chain_id      bigint NOT NULL,
  destination_chain_id bigint NOT NULL,
  status               text NOT NULL,
  currency_in_symbol   text,
  fail_reason          text,
  fill_seconds         bigint NOT NULL,
  n                    bigint NOT NULL,
  CONSTRAINT request_fill_stats_daily_key UNIQUE NULLS NOT DISTINCT
    (day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, fill_seconds)
);

-- How many of `scales` are 0, 1, 2, … (element scale + 1); top_scale: the largest scale still counted.
CREATE FUNCTION crossfill.scale_counts(scales int[]) RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg((SELECT count(*) FROM unnest(scales) s WHERE s = i) ORDER BY i) FROM generate_series(0, (SELECT max(s) FROM unnest(scales) s)) i
$$;
CREATE FUNCTION crossfill.top_scale(counts bigint[]) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT max(i) - 1 FROM generate_subscripts(counts, 1) i WHERE counts[i] > 0
$$;

-- One statement per rollup from the raw rows: the backfill below, and the rebuild after a bulk load with the
-- triggers off (schema/rebuildRequestStatsRollup.ts). SHARE lock: no request changes while it runs (and stats
-- readers wait for the TRUNCATE's lock rather than see empty rollups). In day order: a window's days are
-- neighbouring pages.
CREATE FUNCTION crossfill.rebuild_request_stats_rollup() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE crossfill.requests IN SHARE MODE;
  TRUNCATE crossfill.request_stats_daily, crossfill.request_fill_stats_daily;
  INSERT INTO crossfill.request_stats_daily
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), origin_chain_id, destination_chain_id, status, currency_in_symbol,
         fail_reason, count(*), sum(amount_usd), crossfill.scale_counts(array_agg(scale(amount_usd))), sum(fees_usd), crossfill.scale_counts(array_agg(scale(fees_usd)))
    FROM crossfill.requests GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1;
  INSERT INTO crossfill.request_fill_stats_daily
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), origin_chain_id, destination_chain_id, status,
         currency_in_symbol, fail_reason, fill_seconds, count(*)
    FROM crossfill.requests WHERE fill_seconds IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1;
$$;

SELECT crossfill.rebuild_request_stats_rollup();

CREATE FUNCTION crossfill.request_stats_add(r crossfill.requests) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bucket timestamptz := date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00');
BEGIN
  -- numeric + keeps the larger scale, as sum() over the raw rows does
  INSERT INTO crossfill.request_stats_daily AS s
  VALUES (bucket, r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason,
          1, r.amount_usd, array_fill(0::bigint, ARRAY[scale(r.amount_usd)]) || 1::bigint, r.fees_usd, array_fill(0::bigint, ARRAY[scale(r.fees_usd)]) || 1::bigint)
  ON CONFLICT ON CONSTRAINT request_stats_daily_key DO UPDATE SET
    n = s.n + 1,
    volume = s.volume + excluded.volume,
    volume_scales[scale(excluded.volume) + 1] = coalesce(s.volume_scales[scale(excluded.volume) + 1], 0) + 1,
    fees = s.fees + excluded.fees,
    fees_scales[scale(excluded.fees) + 1] = coalesce(s.fees_scales[scale(excluded.fees) + 1], 0) + 1;
  IF r.fill_seconds IS NOT NULL THEN
    INSERT INTO crossfill.request_fill_stats_daily AS s
    VALUES (bucket, r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason, r.fill_seconds, 1)
    ON CONFLICT ON CONSTRAINT request_fill_stats_daily_key DO UPDATE SET n = s.n + 1;
  END IF;
END
$$;

-- Rows whose count reaches 0 are deleted, not kept as zeros: a zero row would still carry its sums' scale
-- (0.00) into the day's other groups, and would print a bucket of 0 requests.
CREATE FUNCTION crossfill.request_stats_remove(r crossfill.requests) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bucket timestamptz := date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00');
  left_row crossfill.request_stats_daily;
BEGIN
  UPDATE crossfill.request_stats_daily s SET
    n = s.n - 1,
    volume = s.volume - r.amount_usd,
    volume_scales[scale(r.amount_usd) + 1] = s.volume_scales[scale(r.amount_usd) + 1] - 1,
    fees = s.fees - r.fees_usd,
    fees_scales[scale(r.fees_usd) + 1] = s.fees_scales[scale(r.fees_usd) + 1] - 1
   WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
     AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
     AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason
  RETURNING s.* INTO left_row;
  IF left_row.n = 0 THEN
    DELETE FROM crossfill.request_stats_daily s
     WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
       AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
       AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason;
  ELSIF left_row.volume_scales[scale(left_row.volume) + 1] = 0 OR left_row.fees_scales[scale(left_row.fees) + 1] = 0 THEN
    -- The last row with the sum's scale left: the raw sum of the rows left prints with their largest scale
    -- (rounding to it is exact: the rows left have no more decimals).
    UPDATE crossfill.request_stats_daily s
       SET volume = round(s.volume, crossfill.top_scale(s.volume_scales)), fees = round(s.fees, crossfill.top_scale(s.fees_scales))
     WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
       AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
       AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason;
  END IF;
  IF r.fill_seconds IS NOT NULL THEN
    UPDATE crossfill.request_fill_stats_daily s SET n = s.n - 1
     WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
       AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
       AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason AND s.fill_seconds = r.fill_seconds
    RETURNING s.n INTO left_row.n;
    IF left_row.n = 0 THEN
      DELETE FROM crossfill.request_fill_stats_daily s
       WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
         AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
         AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason AND s.fill_seconds = r.fill_seconds;
    END IF;
  END IF;
END
$$;

CREATE FUNCTION crossfill.request_stats_rollup_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM crossfill.request_stats_remove(OLD); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM crossfill.request_stats_add(NEW); END IF;
  RETURN NULL;
END
$$;

-- AFTER triggers see the stored generated columns (amount_usd, fees_usd, currency_in_symbol derive from
-- `quote`). fill_seconds is set by the deposit and fill triggers of migration 0013 with an UPDATE of the request,
-- so it arrives here too. Measures compared as text: 5.0 → 5.00 changes the printed sum.
CREATE TRIGGER requests_stats_rollup AFTER INSERT OR DELETE ON crossfill.requests
  FOR EACH ROW EXECUTE FUNCTION crossfill.request_stats_rollup_trigger();
CREATE TRIGGER requests_stats_rollup_update AFTER UPDATE ON crossfill.requests
  FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.origin_chain_id IS DISTINCT FROM NEW.origin_chain_id
     OR OLD.destination_chain_id IS DISTINCT FROM NEW.destination_chain_id OR OLD.status IS DISTINCT FROM NEW.status
     OR OLD.currency_in_symbol IS DISTINCT FROM NEW.currency_in_symbol OR OLD.fail_reason IS DISTINCT FROM NEW.fail_reason
     OR OLD.fill_seconds IS DISTINCT FROM NEW.fill_seconds
     OR OLD.amount_usd::text IS DISTINCT FROM NEW.amount_usd::text OR OLD.fees_usd::text IS DISTINCT FROM NEW.fees_usd::text)
  EXECUTE FUNCTION crossfill.request_stats_rollup_trigger();

-- TRUNCATE fires no row trigger.
CREATE FUNCTION crossfill.request_stats_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE crossfill.request_stats_daily, crossfill.request_fill_stats_daily;
  RETURN NULL;
END
$$;
CREATE TRIGGER requests_stats_rollup_truncate AFTER TRUNCATE ON crossfill.requests
  FOR EACH STATEMENT EXECUTE FUNCTION crossfill.request_stats_truncate_trigger();
