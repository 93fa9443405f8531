-- The next nonce of each solver key on each chain. Signing a fill locks this row, so replicas of the
-- worker never sign two transactions with one nonce, and no nonce is skipped.
CREATE TABLE crossfill.solver_nonces (
  chain_id   bigint NOT NULL,
  solver     text NOT NULL,
  next_nonce bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, solver)
);
