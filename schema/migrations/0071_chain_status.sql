-- Operator switches per chain (`crossfill chains …`), read by every gateway replica: a disabled chain takes no
-- new quotes, as origin or destination; a partly disabled one takes none above its USD limit.
CREATE TABLE crossfill.chain_switches (
  chain_id                  bigint PRIMARY KEY,
  disabled                  boolean NOT NULL DEFAULT false,
  partial_disable_limit_usd numeric CHECK (partial_disable_limit_usd > 0),
  reason                    text,
  updated_at                timestamptz NOT NULL DEFAULT now()
);

-- The newest block each chain's indexer has seen, and when its number last moved: a head that stops moving
-- is the spec's blockProductionLagging.
CREATE TABLE crossfill.chain_heads (
  chain_id     bigint PRIMARY KEY,
  block_number bigint NOT NULL,
  moved_at     timestamptz NOT NULL,
  observed_at  timestamptz NOT NULL
);
