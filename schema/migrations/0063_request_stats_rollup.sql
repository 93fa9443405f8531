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
  -- sum(amount_usd) and sum(fees_usd) at the scale the raw sum prints with: the largest scale of the rows, and
  -- how many rows have it (when the last of them leaves, the scale is re-read from the rows).
  volume               numeric NOT NULL,
  volume_top           bigint NOT NULL,
  fees                 numeric NOT NULL,
  fees_top             bigint NOT NULL,
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

-- One statement per rollup from the raw rows: the backfill below, and the rebuild after a bulk load with the
-- triggers off (schema/rebuildRequestStatsRollup.ts). SHARE lock: no request changes while it runs. In day
-- order, so a window's days are neighbouring pages.
CREATE FUNCTION crossfill.rebuild_request_stats_rollup() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE crossfill.requests IN SHARE MODE;
  DELETE FROM crossfill.request_stats_daily;
  DELETE FROM crossfill.request_fill_stats_daily;
  INSERT INTO crossfill.request_stats_daily
  WITH scaled AS (
    SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') AS day, origin_chain_id, destination_chain_id, status,
           currency_in_symbol, fail_reason, scale(amount_usd) AS volume_scale, scale(fees_usd) AS fees_scale,
           count(*) AS n, sum(amount_usd) AS volume, sum(fees_usd) AS fees
      FROM crossfill.requests GROUP BY 1, 2, 3, 4, 5, 6, 7, 8),
  tops AS (
    SELECT *, max(volume_scale) OVER w AS volume_max, max(fees_scale) OVER w AS fees_max
      FROM scaled WINDOW w AS (PARTITION BY day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason))
  SELECT day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, sum(n),
         sum(volume), sum(n) FILTER (WHERE volume_scale = volume_max), sum(fees), sum(n) FILTER (WHERE fees_scale = fees_max)
    FROM tops GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1;
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
  VALUES (bucket, r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason, 1, r.amount_usd, 1, r.fees_usd, 1)
  ON CONFLICT ON CONSTRAINT request_stats_daily_key DO UPDATE SET
    n = s.n + 1,
    volume = s.volume + excluded.volume,
    volume_top = CASE sign(scale(excluded.volume) - scale(s.volume)) WHEN 1 THEN 1 WHEN 0 THEN s.volume_top + 1 ELSE s.volume_top END,
    fees = s.fees + excluded.fees,
    fees_top = CASE sign(scale(excluded.fees) - scale(s.fees)) WHEN 1 THEN 1 WHEN 0 THEN s.fees_top + 1 ELSE s.fees_top END;
  IF r.fill_seconds IS NOT NULL THEN
    INSERT INTO crossfill.request_fill_stats_daily AS s
    VALUES (bucket, r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason, r.fill_seconds, 1)
    ON CONFLICT ON CONSTRAINT request_fill_stats_daily_key DO UPDATE SET n = s.n + 1;
  END IF;
END
$$;

-- The largest scale among a rollup group's rows and how many have it, read from the raw rows (the day's range
-- of requests_stats_idx): only when the last row with the group's scale leaves it.
CREATE FUNCTION crossfill.request_stats_scale(r crossfill.requests, measure text, OUT top_scale int, OUT top_rows bigint) LANGUAGE sql STABLE AS $$
  SELECT scale, count(*) FROM (
    SELECT CASE measure WHEN 'volume' THEN scale(q.amount_usd) ELSE scale(q.fees_usd) END AS scale
      FROM crossfill.requests q
     WHERE q.created_at >= date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00')
       AND q.created_at < date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00') + interval '1 day'
       AND q.origin_chain_id = r.origin_chain_id AND q.destination_chain_id = r.destination_chain_id AND q.status = r.status
       AND q.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol AND q.fail_reason IS NOT DISTINCT FROM r.fail_reason
       AND q.id <> r.id) x
  GROUP BY scale ORDER BY scale DESC LIMIT 1
$$;

-- Rows whose count reaches 0 are deleted, not kept as zeros: a zero row would still carry its sums' scale
-- (0.00) into the day's other groups, and would print a bucket of 0 requests.
CREATE FUNCTION crossfill.request_stats_remove(r crossfill.requests) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bucket timestamptz := date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00');
  left_row crossfill.request_stats_daily;
  rescaled record;
BEGIN
  UPDATE crossfill.request_stats_daily s SET
    n = s.n - 1,
    volume = s.volume - r.amount_usd,
    volume_top = s.volume_top - CASE WHEN scale(r.amount_usd) = scale(s.volume) THEN 1 ELSE 0 END,
    fees = s.fees - r.fees_usd,
    fees_top = s.fees_top - CASE WHEN scale(r.fees_usd) = scale(s.fees) THEN 1 ELSE 0 END
   WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
     AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
     AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason
  RETURNING s.* INTO left_row;
  IF left_row.n = 0 THEN
    DELETE FROM crossfill.request_stats_daily s
     WHERE s.day = bucket AND s.origin_chain_id = r.origin_chain_id AND s.destination_chain_id = r.destination_chain_id
       AND s.status = r.status AND s.currency_in_symbol IS NOT DISTINCT FROM r.currency_in_symbol
       AND s.fail_reason IS NOT DISTINCT FROM r.fail_reason;
  ELSIF left_row.volume_top = 0 OR left_row.fees_top = 0 THEN
    -- The last row with the sum's scale left: the raw sum of the rows left prints with their largest scale.
    IF left_row.volume_top = 0 THEN
      rescaled := crossfill.request_stats_scale(r, 'volume');
      left_row.volume := round(left_row.volume, rescaled.top_scale);
      left_row.volume_top := rescaled.top_rows;
    END IF;
    IF left_row.fees_top = 0 THEN
      rescaled := crossfill.request_stats_scale(r, 'fees');
      left_row.fees := round(left_row.fees, rescaled.top_scale);
      left_row.fees_top := rescaled.top_rows;
    END IF;
    UPDATE crossfill.request_stats_daily s SET volume = left_row.volume, volume_top = left_row.volume_top, fees = left_row.fees, fees_top = left_row.fees_top
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
