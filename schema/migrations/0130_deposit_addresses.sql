-- Bitcoin deposit addresses (useDepositAddress): BIP84 child `0/index` of the configured account key. An index is
-- taken from the sequence once and never given out again (a quote that fails after taking one leaves a gap); the
-- sequence is bounded to BIP32's non-hardened range.
CREATE SEQUENCE crossfill.deposit_address_index_seq AS integer MINVALUE 0 MAXVALUE 2147483647 START 0 NO CYCLE;

CREATE TABLE crossfill.deposit_addresses (
  chain_id         bigint NOT NULL,
  derivation_index integer NOT NULL,
  address          text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, derivation_index),
  UNIQUE (chain_id, address)
);

-- The requests an address was quoted for. A regenerated request (a new quote reusing the address of an expired,
-- unpaid one) takes the address over: the old row names it in superseded_by, and at most one row per address is
-- current — the request a payment to the address is a deposit of.
CREATE TABLE crossfill.request_deposit_addresses (
  request_id    text PRIMARY KEY REFERENCES crossfill.requests (id),
  chain_id      bigint NOT NULL,
  address       text NOT NULL,
  type          text NOT NULL CHECK (type IN ('open', 'strict')),
  superseded_by text REFERENCES crossfill.requests (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (chain_id, address) REFERENCES crossfill.deposit_addresses (chain_id, address)
);
CREATE UNIQUE INDEX request_deposit_addresses_current_idx
  ON crossfill.request_deposit_addresses (chain_id, address) WHERE superseded_by IS NULL;
CREATE INDEX request_deposit_addresses_address_idx ON crossfill.request_deposit_addresses (address);

-- The worker's sweep of one deposit-address deposit to the depository, stored signed before it is broadcast; the
-- deposit's outpoint is the key, so a deposit is swept by one transaction however many jobs run. A deposit that
-- needs no sweep (the order was paid to the depository itself, with its memo) is kept with `skipped` and no tx. A
-- strict EXACT_OUTPUT overpayment's excess goes back in the sweep itself: `returned_to`, `returned_amount`.
CREATE TABLE crossfill.deposit_sweeps (
  chain_id          bigint NOT NULL,
  deposit_tx_hash   text NOT NULL,
  deposit_log_index integer NOT NULL,
  request_id        text NOT NULL REFERENCES crossfill.requests (id),
  amount            numeric(78,0),
  fee               numeric(78,0),
  tx_hash           text,
  raw_tx            text,
  skipped           text,
  returned_to       text,
  returned_amount   numeric(78,0),
  confirmed_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, deposit_tx_hash, deposit_log_index),
  CHECK ((skipped IS NULL) = (tx_hash IS NOT NULL AND raw_tx IS NOT NULL))
);
CREATE INDEX deposit_sweeps_open_idx ON crossfill.deposit_sweeps (created_at) WHERE confirmed_at IS NULL;

-- `features` gains deposit_address: a quote made with one keeps `depositAddress` in its stored quote.
ALTER TABLE crossfill.requests DROP COLUMN features;
ALTER TABLE crossfill.requests ADD COLUMN features text[] NOT NULL GENERATED ALWAYS AS (
  CASE WHEN coalesce(quote #>> '{fees,app,amount}', '0') <> '0' THEN ARRAY['app_fees'] ELSE ARRAY[]::text[] END
  || CASE WHEN quote ? 'depositAddress' THEN ARRAY['deposit_address'] ELSE ARRAY[]::text[] END) STORED;
