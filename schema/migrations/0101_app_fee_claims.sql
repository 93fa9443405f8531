-- A claim of earned app fees, written once its wallet's EIP-712 signature checked out. `id` is the bytes32 the
-- wallet signed: the primary key keeps one signature from paying twice, and it names the Depository withdrawal
-- that pays it. A claim counts against the balance from the moment it is written (whatever its status), and
-- claims of one (wallet, chain, currency) are written under one advisory lock, so their sum never exceeds
-- what was earned. The signed payout is stored before it is broadcast, like a refund's.
CREATE TABLE crossfill.app_fee_claims (
  id          text PRIMARY KEY,
  wallet      text NOT NULL,
  chain_id    bigint NOT NULL,
  currency    text NOT NULL,
  recipient   text NOT NULL,
  amount      numeric(78,0) NOT NULL CHECK (amount > 0),
  signature   text NOT NULL,
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'paid')),
  nonce       bigint,
  tx_hash     text,
  raw_tx      text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_fee_claims_balance_idx ON crossfill.app_fee_claims (wallet, chain_id, currency);
CREATE INDEX app_fee_claims_open_idx ON crossfill.app_fee_claims (status) WHERE status IN ('queued', 'sent');
