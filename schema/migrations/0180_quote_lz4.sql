-- A quote's stored JSON is 11-16 kB, so every quote's row is TOAST-compressed on insert; with pglz, the default,
-- that was about a fifth of Postgres's CPU per quote. lz4 compresses it several times faster (and reads it back
-- faster). Only where the server was built with lz4 (Debian's and most packaged builds; not the embedded Postgres of
-- `npm start`): elsewhere the columns keep pglz. New values only; rows already stored stay as they are.
DO $$
BEGIN
  ALTER TABLE crossfill.requests ALTER COLUMN quote SET COMPRESSION lz4, ALTER COLUMN order_data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this Postgres has no lz4: crossfill.requests keeps pglz compression';
END
$$;
