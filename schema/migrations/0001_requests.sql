-- Requests are created at quote time (status waiting) and moved only through status transitions,
-- each of which writes its status_events row (the outbox) in the same transaction.
CREATE TABLE crossfill.requests (
  id                   text PRIMARY KEY,
  order_id             text NOT NULL UNIQUE,
  status               text NOT NULL CHECK (status IN ('waiting','depositing','pending','submitted','success','failure','refund')),
  request_type         text NOT NULL,
  trade_type           text NOT NULL CHECK (trade_type IN ('EXACT_INPUT','EXACT_OUTPUT')),
  user_address         text NOT NULL,
  recipient            text NOT NULL,
  refund_to            text,
  origin_chain_id      bigint NOT NULL,
  destination_chain_id bigint NOT NULL,
  origin_currency      text NOT NULL,
  destination_currency text NOT NULL,
  amount_in            numeric(78,0) NOT NULL CHECK (amount_in > 0),
  amount_out           numeric(78,0) NOT NULL CHECK (amount_out >= 0),
  minimum_amount_out   numeric(78,0) NOT NULL CHECK (minimum_amount_out >= 0),
  slippage_bps         integer NOT NULL CHECK (slippage_bps BETWEEN 0 AND 10000),
  deadline             timestamptz NOT NULL,
  referrer             text,
  calls                jsonb NOT NULL DEFAULT '[]',
  order_data           jsonb NOT NULL,
  quote                jsonb NOT NULL,
  fail_reason          text,
  refund_fail_reason   text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX requests_open_idx ON crossfill.requests (status, updated_at) WHERE status NOT IN ('success', 'refund');
CREATE INDEX requests_user_idx ON crossfill.requests (user_address, created_at DESC);

CREATE TABLE crossfill.status_events (
  id                 bigserial PRIMARY KEY,
  request_id         text NOT NULL REFERENCES crossfill.requests (id),
  from_status        text,
  to_status          text NOT NULL,
  fail_reason        text,
  refund_fail_reason text,
  details            jsonb,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_events_request_idx ON crossfill.status_events (request_id, id);

-- Chain facts that do not come from Ponder: deposits indexed by hand (POST /transactions/index) and,
-- later, the non-EVM pollers. Same shape as the Ponder deposit view.
CREATE TABLE crossfill.deposit_facts (
  chain_id     bigint NOT NULL,
  tx_hash      text NOT NULL,
  log_index    integer NOT NULL,
  order_id     text NOT NULL,
  depositor    text NOT NULL,
  currency     text NOT NULL,
  amount       numeric(78,0) NOT NULL,
  block_number bigint NOT NULL,
  block_hash   text NOT NULL,
  timestamp    bigint NOT NULL,
  tx_from      text NOT NULL,
  source       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX deposit_facts_order_idx ON crossfill.deposit_facts (order_id);

-- A deposit applied to a request; the key makes applying a fact idempotent.
CREATE TABLE crossfill.request_deposits (
  chain_id     bigint NOT NULL,
  tx_hash      text NOT NULL,
  log_index    integer NOT NULL,
  request_id   text NOT NULL REFERENCES crossfill.requests (id),
  depositor    text NOT NULL,
  currency     text NOT NULL,
  amount       numeric(78,0) NOT NULL,
  block_number bigint NOT NULL,
  timestamp    bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX request_deposits_request_idx ON crossfill.request_deposits (request_id);

-- The solver's fill transaction, written before it is broadcast so a crashed worker re-sends the same
-- signed transaction instead of paying twice. One per request.
CREATE TABLE crossfill.fill_attempts (
  request_id text PRIMARY KEY REFERENCES crossfill.requests (id),
  chain_id   bigint NOT NULL,
  solver     text NOT NULL,
  nonce      bigint NOT NULL,
  tx_hash    text NOT NULL,
  raw_tx     text NOT NULL,
  currency   text NOT NULL,
  amount     numeric(78,0) NOT NULL,
  recipient  text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (chain_id, solver, nonce)
);

-- A fill seen on-chain and applied to its request.
CREATE TABLE crossfill.request_fills (
  chain_id     bigint NOT NULL,
  tx_hash      text NOT NULL,
  log_index    integer NOT NULL,
  request_id   text NOT NULL REFERENCES crossfill.requests (id),
  amount       numeric(78,0) NOT NULL,
  block_number bigint NOT NULL,
  timestamp    bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE UNIQUE INDEX request_fills_request_idx ON crossfill.request_fills (request_id);
