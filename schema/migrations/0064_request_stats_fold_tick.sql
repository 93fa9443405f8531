-- The rollups' pending changes are folded by the worker's stats tick (src/roles/startWorker.ts, through
-- schema/foldRequestStatsChanges.ts), no longer by one request change in 64: that change's transaction, a
-- status change on the money path, paid the whole fold's time. The fold now answers how many change rows it
-- moved (NULL when another fold holds the lock), for the tick's log and its test.
DROP FUNCTION crossfill.fold_request_stats_changes();
CREATE FUNCTION crossfill.fold_request_stats_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  totals bigint;
  fills bigint;
BEGIN
  IF NOT pg_try_advisory_xact_lock(7240063) THEN RETURN NULL; END IF;
  WITH moved AS (DELETE FROM crossfill.request_stats_daily_changes RETURNING *),
  folded AS (
    INSERT INTO crossfill.request_stats_daily AS s
    SELECT day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, volume_scale, fees_scale, sum(n), sum(volume), sum(fees)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT request_stats_daily_key
    DO UPDATE SET n = s.n + excluded.n, volume = s.volume + excluded.volume, fees = s.fees + excluded.fees)
  SELECT count(*) INTO totals FROM moved;
  DELETE FROM crossfill.request_stats_daily WHERE n = 0;
  WITH moved AS (DELETE FROM crossfill.request_fill_stats_daily_changes RETURNING *),
  folded AS (
    INSERT INTO crossfill.request_fill_stats_daily AS s
    SELECT day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, fill_seconds, sum(n)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ON CONSTRAINT request_fill_stats_daily_key DO UPDATE SET n = s.n + excluded.n)
  SELECT count(*) INTO fills FROM moved;
  DELETE FROM crossfill.request_fill_stats_daily WHERE n = 0;
  RETURN totals + fills;
END
$$;

CREATE OR REPLACE FUNCTION crossfill.request_stats_rollup_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM crossfill.append_request_stats_change(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM crossfill.append_request_stats_change(NEW, 1); END IF;
  RETURN NULL;
END
$$;
