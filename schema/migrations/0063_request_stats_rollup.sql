-- requestStats (GraphQL analytics) answers whole UTC days from these rollups instead of the raw rows; the
-- window's partial days at either edge still come from crossfill.requests (schema/requestStats.ts). Keyed by the
-- dimensions a stats grouping names (HOUR aside), with the listing's column names so its WHERE conditions on
-- them apply unchanged; NULL stays NULL and equals NULL in the unique key.
--
-- Why daily and without api_key_id (docs/PERFORMANCE.md, Analytics): at 1M requests a year (~114 an hour) an
-- hourly rollup by every dimension has 805k rows of 1M (the histogram 773k of 780k) and read 2× slower than the
-- raw rows; by day without the key it is 80k rows (the histogram 249k). HOUR groupings (31 days at most) and
-- filters on anything else, the API key included, read the raw rows.
--
-- The sums' scales are part of the key: sum(numeric) prints with the largest scale of its rows ("360.30"), and a
-- group whose rows all have one scale keeps it through any subtraction. A reader adds up only groups that still
-- have rows, so the printed scale is the raw sum's.
CREATE TABLE crossfill.request_stats_daily (
  day                  timestamptz NOT NULL,
  origin_chain_id      bigint NOT NULL,
  destination_chain_id bigint NOT NULL,
  status               text NOT NULL,
  currency_in_symbol   text,
  fail_reason          text,
  volume_scale         int NOT NULL,
  fees_scale           int NOT NULL,
  n                    bigint NOT NULL,
  volume               numeric NOT NULL,
  fees                 numeric NOT NULL,
  CONSTRAINT request_stats_daily_key UNIQUE NULLS NOT DISTINCT
    (day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, volume_scale, fees_scale)
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

-- Each request change appends its contribution (−1 for the old row, +1 for the new) here, insert only: two
-- transactions changing requests of the same group never wait for each other (an upsert of the group's row
-- would hold its lock until commit). Readers add these to the rollups; folded into them now and then.
CREATE TABLE crossfill.request_stats_daily_changes (LIKE crossfill.request_stats_daily);
CREATE TABLE crossfill.request_fill_stats_daily_changes (LIKE crossfill.request_fill_stats_daily);
CREATE INDEX request_stats_daily_empty_idx ON crossfill.request_stats_daily (day) WHERE n = 0;
CREATE INDEX request_fill_stats_daily_empty_idx ON crossfill.request_fill_stats_daily (day) WHERE n = 0;

-- One statement per rollup from the raw rows: the backfill below, and the rebuild after a bulk load with the
-- triggers off (schema/rebuildRequestStatsRollup.ts). SHARE lock: no request changes while it runs (and stats
-- readers wait for the TRUNCATE's lock rather than see empty rollups). In day order: a window's days are
-- neighbouring pages.
CREATE FUNCTION crossfill.rebuild_request_stats_rollup() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE crossfill.requests IN SHARE MODE;
  TRUNCATE crossfill.request_stats_daily, crossfill.request_fill_stats_daily, crossfill.request_stats_daily_changes,
           crossfill.request_fill_stats_daily_changes;
  INSERT INTO crossfill.request_stats_daily
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), origin_chain_id, destination_chain_id, status, currency_in_symbol,
         fail_reason, scale(amount_usd), scale(fees_usd), count(*), sum(amount_usd), sum(fees_usd)
    FROM crossfill.requests GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1;
  INSERT INTO crossfill.request_fill_stats_daily
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), origin_chain_id, destination_chain_id, status,
         currency_in_symbol, fail_reason, fill_seconds, count(*)
    FROM crossfill.requests WHERE fill_seconds IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1;
$$;

SELECT crossfill.rebuild_request_stats_rollup();

-- Moves the appended changes into the rollups (one fold at a time: the others skip). Groups left with no rows
-- are deleted.
CREATE FUNCTION crossfill.fold_request_stats_changes() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(7240063) THEN RETURN; END IF;
  WITH moved AS (DELETE FROM crossfill.request_stats_daily_changes RETURNING *)
  INSERT INTO crossfill.request_stats_daily AS s
  SELECT day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, volume_scale, fees_scale, sum(n), sum(volume), sum(fees)
    FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ON CONSTRAINT request_stats_daily_key
  DO UPDATE SET n = s.n + excluded.n, volume = s.volume + excluded.volume, fees = s.fees + excluded.fees;
  DELETE FROM crossfill.request_stats_daily WHERE n = 0;
  WITH moved AS (DELETE FROM crossfill.request_fill_stats_daily_changes RETURNING *)
  INSERT INTO crossfill.request_fill_stats_daily AS s
  SELECT day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, fill_seconds, sum(n)
    FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ON CONSTRAINT request_fill_stats_daily_key DO UPDATE SET n = s.n + excluded.n;
  DELETE FROM crossfill.request_fill_stats_daily WHERE n = 0;
END
$$;

-- sign: +1 adds the row's contribution, −1 removes it.
CREATE FUNCTION crossfill.append_request_stats_change(r crossfill.requests, sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  bucket timestamptz := date_bin('1 day', r.created_at, timestamptz '2000-01-01 00:00:00+00');
BEGIN
  INSERT INTO crossfill.request_stats_daily_changes
  VALUES (bucket, r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason, scale(r.amount_usd), scale(r.fees_usd),
          sign, sign * r.amount_usd, sign * r.fees_usd);
  IF r.fill_seconds IS NOT NULL THEN
    INSERT INTO crossfill.request_fill_stats_daily_changes
    VALUES (bucket, r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason, r.fill_seconds, sign);
  END IF;
END
$$;

CREATE FUNCTION crossfill.request_stats_rollup_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM crossfill.append_request_stats_change(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM crossfill.append_request_stats_change(NEW, 1); END IF;
  -- About one change in 64 folds the changes so far (a few hundred rows); readers add up whatever is left.
  IF random() < 1.0 / 64 THEN PERFORM crossfill.fold_request_stats_changes(); END IF;
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
  TRUNCATE crossfill.request_stats_daily, crossfill.request_fill_stats_daily, crossfill.request_stats_daily_changes,
           crossfill.request_fill_stats_daily_changes;
  RETURN NULL;
END
$$;
CREATE TRIGGER requests_stats_rollup_truncate AFTER TRUNCATE ON crossfill.requests
  FOR EACH STATEMENT EXECUTE FUNCTION crossfill.request_stats_truncate_trigger();
