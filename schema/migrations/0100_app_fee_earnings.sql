-- What each app-fee recipient earned, one row per (request, recipient), written in the transaction that moves the
-- request to success: the key keeps a replayed reconcile from crediting twice. Earnings stay in the origin
-- chain's Depository, in the input currency, until claimed. Addresses and currencies are lower case.
CREATE TABLE crossfill.app_fee_earnings (
  request_id  text NOT NULL REFERENCES crossfill.requests (id),
  recipient   text NOT NULL,
  chain_id    bigint NOT NULL,
  currency    text NOT NULL,
  bps         integer NOT NULL,
  amount      numeric(78,0) NOT NULL CHECK (amount >= 0),
  amount_usd  numeric NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, recipient)
);
CREATE INDEX app_fee_earnings_balance_idx ON crossfill.app_fee_earnings (recipient, chain_id, currency);
