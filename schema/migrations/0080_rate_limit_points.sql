-- Rate-limit counters of npm rate-limiter-flexible's Postgres store (the embedded mode, no Redis), created here
-- instead of by the library at run time; `key` is text (the library's own varchar(255) would fail on long keys).
-- Unlogged: losing counts in a crash is harmless. The hand-written fixed-window table it replaces is dropped.
CREATE UNLOGGED TABLE crossfill.rate_limit_points (
  key    text PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
CREATE INDEX rate_limit_points_expire ON crossfill.rate_limit_points (expire);
DROP TABLE crossfill.rate_limit_windows;
