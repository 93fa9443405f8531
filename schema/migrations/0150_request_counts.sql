-- Exact listing totals (`includeTotal`) without counting every matching row: requests counted per UTC day and
-- bucket, kept exactly by triggers (schema/countRequests.ts reads them; the window's partial edge days and any
-- filter on other fields still count crossfill.requests). Unlike the requestStats rollups these keep child
-- requests apart (the listing leaves them out by default) and one projection keeps the API key (the integrator
-- scope and `apiKey` filters). Columns carry the listing's names so its WHERE conditions apply unchanged.
--
-- Two projections instead of one bucket of every dimension: by chain pair and key together the buckets would be
-- nearly as many as the requests (migration 0063's finding); each alone stays at days × statuses × pairs (or keys).
-- Each also has a monthly copy (`day` then holds the UTC month's start) for the whole months of a window, so an
-- unbounded total reads months × statuses × pairs rows, not days × ….
CREATE TABLE crossfill.request_counts_by_chain (
  day                  timestamptz NOT NULL,
  child                boolean NOT NULL,
  status               text NOT NULL,
  origin_chain_id      bigint NOT NULL,
  destination_chain_id bigint NOT NULL,
  fail_reason          text,
  n                    bigint NOT NULL,
  CONSTRAINT request_counts_by_chain_key UNIQUE NULLS NOT DISTINCT
    (status, day, child, origin_chain_id, destination_chain_id, fail_reason)
);
CREATE TABLE crossfill.request_counts_by_key (
  day        timestamptz NOT NULL,
  child      boolean NOT NULL,
  status     text NOT NULL,
  api_key_id text,
  n          bigint NOT NULL,
  CONSTRAINT request_counts_by_key_key UNIQUE NULLS NOT DISTINCT (api_key_id, status, day, child)
);

CREATE TABLE crossfill.request_counts_by_chain_monthly (LIKE crossfill.request_counts_by_chain INCLUDING INDEXES);
CREATE TABLE crossfill.request_counts_by_key_monthly (LIKE crossfill.request_counts_by_key INCLUDING INDEXES);

-- Each request change appends its ±1 here, insert only (no lock on a shared bucket row on the quote and status
-- paths, as in migration 0063); readers add these to the projections; the worker's stats tick folds them.
CREATE TABLE crossfill.request_count_changes (LIKE crossfill.request_counts_by_chain);
ALTER TABLE crossfill.request_count_changes ADD COLUMN api_key_id text;

-- One fold at a time (the others skip); answers the change rows moved, NULL when another fold holds the lock.
CREATE FUNCTION crossfill.fold_request_count_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  moved_rows bigint;
BEGIN
  IF NOT pg_try_advisory_xact_lock(7240150) THEN RETURN NULL; END IF;
  WITH moved AS (DELETE FROM crossfill.request_count_changes RETURNING *),
  by_chain AS (
    INSERT INTO crossfill.request_counts_by_chain AS s
    SELECT day, child, status, origin_chain_id, destination_chain_id, fail_reason, sum(n)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT request_counts_by_chain_key DO UPDATE SET n = s.n + excluded.n),
  by_key AS (
    INSERT INTO crossfill.request_counts_by_key AS s
    SELECT day, child, status, api_key_id, sum(n) FROM moved GROUP BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT request_counts_by_key_key DO UPDATE SET n = s.n + excluded.n),
  by_chain_monthly AS (
    INSERT INTO crossfill.request_counts_by_chain_monthly AS s
    SELECT date_trunc('month', day, 'UTC'), child, status, origin_chain_id, destination_chain_id, fail_reason, sum(n)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (status, day, child, origin_chain_id, destination_chain_id, fail_reason) DO UPDATE SET n = s.n + excluded.n),
  by_key_monthly AS (
    INSERT INTO crossfill.request_counts_by_key_monthly AS s
    SELECT date_trunc('month', day, 'UTC'), child, status, api_key_id, sum(n) FROM moved GROUP BY 1, 2, 3, 4
    ON CONFLICT (api_key_id, status, day, child) DO UPDATE SET n = s.n + excluded.n)
  SELECT count(*) INTO moved_rows FROM moved;
  DELETE FROM crossfill.request_counts_by_chain WHERE n = 0;
  DELETE FROM crossfill.request_counts_by_key WHERE n = 0;
  DELETE FROM crossfill.request_counts_by_chain_monthly WHERE n = 0;
  DELETE FROM crossfill.request_counts_by_key_monthly WHERE n = 0;
  RETURN moved_rows;
END
$$;

-- From the raw rows, after a bulk load with the triggers off (schema/seedBenchRequests.ts) and below. SHARE lock:
-- no request changes while it runs.
CREATE FUNCTION crossfill.rebuild_request_counts() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE crossfill.requests IN SHARE MODE;
  TRUNCATE crossfill.request_counts_by_chain, crossfill.request_counts_by_key, crossfill.request_counts_by_chain_monthly,
           crossfill.request_counts_by_key_monthly, crossfill.request_count_changes;
  INSERT INTO crossfill.request_counts_by_chain
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), parent_request_id IS NOT NULL, status,
         origin_chain_id, destination_chain_id, fail_reason, count(*)
    FROM crossfill.requests GROUP BY 1, 2, 3, 4, 5, 6;
  INSERT INTO crossfill.request_counts_by_key
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), parent_request_id IS NOT NULL, status,
         api_key_id, count(*)
    FROM crossfill.requests GROUP BY 1, 2, 3, 4;
  INSERT INTO crossfill.request_counts_by_chain_monthly
  SELECT date_trunc('month', day, 'UTC'), child, status, origin_chain_id, destination_chain_id, fail_reason, sum(n)
    FROM crossfill.request_counts_by_chain GROUP BY 1, 2, 3, 4, 5, 6;
  INSERT INTO crossfill.request_counts_by_key_monthly
  SELECT date_trunc('month', day, 'UTC'), child, status, api_key_id, sum(n)
    FROM crossfill.request_counts_by_key GROUP BY 1, 2, 3, 4;
$$;

SELECT crossfill.rebuild_request_counts();

CREATE FUNCTION crossfill.request_counts_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO crossfill.request_count_changes (day, child, status, origin_chain_id, destination_chain_id, fail_reason, api_key_id, n)
    VALUES (date_bin('1 day', OLD.created_at, timestamptz '2000-01-01 00:00:00+00'), OLD.parent_request_id IS NOT NULL,
            OLD.status, OLD.origin_chain_id, OLD.destination_chain_id, OLD.fail_reason, OLD.api_key_id, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO crossfill.request_count_changes (day, child, status, origin_chain_id, destination_chain_id, fail_reason, api_key_id, n)
    VALUES (date_bin('1 day', NEW.created_at, timestamptz '2000-01-01 00:00:00+00'), NEW.parent_request_id IS NOT NULL,
            NEW.status, NEW.origin_chain_id, NEW.destination_chain_id, NEW.fail_reason, NEW.api_key_id, 1);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER requests_counts AFTER INSERT OR DELETE ON crossfill.requests
  FOR EACH ROW EXECUTE FUNCTION crossfill.request_counts_trigger();
CREATE TRIGGER requests_counts_update AFTER UPDATE ON crossfill.requests
  FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.status IS DISTINCT FROM NEW.status
     OR OLD.origin_chain_id IS DISTINCT FROM NEW.origin_chain_id
     OR OLD.destination_chain_id IS DISTINCT FROM NEW.destination_chain_id
     OR OLD.fail_reason IS DISTINCT FROM NEW.fail_reason OR OLD.api_key_id IS DISTINCT FROM NEW.api_key_id
     OR (OLD.parent_request_id IS NULL) IS DISTINCT FROM (NEW.parent_request_id IS NULL))
  EXECUTE FUNCTION crossfill.request_counts_trigger();

-- TRUNCATE fires no row trigger.
CREATE FUNCTION crossfill.request_counts_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE crossfill.request_counts_by_chain, crossfill.request_counts_by_key, crossfill.request_counts_by_chain_monthly,
           crossfill.request_counts_by_key_monthly, crossfill.request_count_changes;
  RETURN NULL;
END
$$;
CREATE TRIGGER requests_counts_truncate AFTER TRUNCATE ON crossfill.requests
  FOR EACH STATEMENT EXECUTE FUNCTION crossfill.request_counts_truncate_trigger();
