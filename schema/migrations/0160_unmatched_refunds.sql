-- Refunds of Bitcoin payments to the depository that named no request (no OP_RETURN, a malformed one, or an order id
-- no request has): after the chain's `refundUnmatchedAfterBlocks` confirmations the worker pays each back to its
-- depositor from the depository, less the refund's fee. The deposit's outpoint is the key, so a deposit is refunded by
-- one transaction however many workers run; the signed transaction is stored (`sent`) before it is broadcast and
-- re-sent from here after a crash. A deposit too small to pay its fee is kept `unrefundable` with the reason; one the
-- worker cannot spend (no key, spent already) is `manual`, for an operator.
CREATE TABLE crossfill.unmatched_refunds (
  chain_id          bigint NOT NULL,
  deposit_tx_hash   text NOT NULL,
  deposit_log_index integer NOT NULL,
  order_id          text NOT NULL,
  recipient         text NOT NULL,
  deposited         numeric(78,0) NOT NULL,
  status            text NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'sent', 'confirmed', 'unrefundable', 'manual')),
  amount            numeric(78,0),
  fee               numeric(78,0),
  tx_hash           text,
  raw_tx            text,
  refund_fail_reason text,
  note              text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, deposit_tx_hash, deposit_log_index),
  CHECK ((status IN ('sent', 'confirmed')) = (tx_hash IS NOT NULL AND raw_tx IS NOT NULL))
);
CREATE INDEX unmatched_refunds_open_idx ON crossfill.unmatched_refunds (updated_at) WHERE status IN ('queued', 'sent');
