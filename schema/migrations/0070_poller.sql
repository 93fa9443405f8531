-- The non-EVM pollers (indexers/poller). Their deposits go to deposit_facts (source 'poller'), which the deposit
-- readers already union with Ponder's view; fills and refund withdrawals get tables of the same shape as Ponder's.
-- Hashes and addresses are text as each chain family writes them (base58, bech32, …): never lowercased.
-- `log_index` is the fact's position in its transaction (an EVM log index, a Bitcoin output, a Solana instruction).

-- The blocks each poller processed, the newest kept for walking back a reorg; the newest row is its cursor.
CREATE TABLE crossfill.poller_blocks (
  chain_id     bigint NOT NULL,
  height       bigint NOT NULL,
  block_hash   text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, height)
);

CREATE TABLE crossfill.fill_facts (
  chain_id     bigint NOT NULL,
  tx_hash      text NOT NULL,
  log_index    integer NOT NULL,
  request_id   text NOT NULL,
  currency     text NOT NULL,
  recipient    text NOT NULL,
  amount       numeric(78,0) NOT NULL,
  block_number bigint NOT NULL,
  block_hash   text NOT NULL,
  timestamp    bigint NOT NULL,
  tx_fee       numeric(78,0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX fill_facts_request_idx ON crossfill.fill_facts (request_id);
CREATE INDEX fill_facts_block_idx ON crossfill.fill_facts (chain_id, block_number);

CREATE TABLE crossfill.withdrawal_facts (
  chain_id     bigint NOT NULL,
  tx_hash      text NOT NULL,
  log_index    integer NOT NULL,
  order_id     text NOT NULL,
  currency     text NOT NULL,
  recipient    text NOT NULL,
  amount       numeric(78,0) NOT NULL,
  block_number bigint NOT NULL,
  block_hash   text NOT NULL,
  timestamp    bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX withdrawal_facts_block_idx ON crossfill.withdrawal_facts (chain_id, block_number);

-- A reorg deletes the facts above the common ancestor, as Ponder deletes its reorged rows.
CREATE INDEX deposit_facts_block_idx ON crossfill.deposit_facts (chain_id, block_number);
