-- The solver's balance of each currency on each chain, as the worker last read it from the chain (on a timer and
-- after each fill): `crossfill solver balances` and the crossfill_solver_balance gauges read it.
CREATE TABLE crossfill.solver_balances (
  chain_id bigint  NOT NULL,
  currency text    NOT NULL,
  symbol   text    NOT NULL,
  decimals integer NOT NULL,
  solver   text    NOT NULL,
  balance  numeric(78,0) NOT NULL CHECK (balance >= 0),
  read_at  timestamptz NOT NULL,
  PRIMARY KEY (chain_id, currency)
);

-- What the solver owes: the outputs of requests paid and not yet filled, summed per destination currency at every
-- quote (the quote refuses what the solver's balance less this cannot pay).
CREATE INDEX requests_owed_by_solver_idx ON crossfill.requests (destination_chain_id, lower(destination_currency))
  WHERE status IN ('depositing', 'pending', 'submitted');
