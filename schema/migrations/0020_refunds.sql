-- A refund pays one deposit back on the chain it was made on. One per deposit: the key is what keeps a
-- deposit from being refunded twice, whatever the jobs do. The signed transaction is stored before it is
-- broadcast, like a fill's.
CREATE TABLE crossfill.refunds (
  id                bigserial PRIMARY KEY,
  request_id        text NOT NULL REFERENCES crossfill.requests (id),
  deposit_chain_id  bigint NOT NULL,
  deposit_tx_hash   text NOT NULL,
  deposit_log_index integer NOT NULL,
  reason            text NOT NULL,
  -- the deposit's own request is refunded (failure → refund); false for a duplicate deposit of a filled request
  refunds_request   boolean NOT NULL,
  chain_id          bigint NOT NULL,
  currency          text NOT NULL,
  deposited         numeric(78,0) NOT NULL,
  recipient         text NOT NULL,
  status            text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'confirmed', 'unrefundable', 'manual', 'settled')),
  amount            numeric(78,0),
  gas_cost          numeric(78,0),
  nonce             bigint,
  tx_hash           text,
  raw_tx            text,
  refund_fail_reason text,
  note              text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (deposit_chain_id, deposit_tx_hash, deposit_log_index)
);
CREATE INDEX refunds_request_idx ON crossfill.refunds (request_id);
CREATE INDEX refunds_open_idx ON crossfill.refunds (status) WHERE status IN ('queued', 'sent');
CREATE UNIQUE INDEX refunds_tx_idx ON crossfill.refunds (chain_id, tx_hash) WHERE tx_hash IS NOT NULL;
