-- Fixed-window rate-limit counters for the embedded mode (no Redis); unlogged: losing counts in a crash is harmless.
CREATE UNLOGGED TABLE crossfill.rate_limit_windows (
  key          text NOT NULL,
  window_start bigint NOT NULL,
  hits         integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
