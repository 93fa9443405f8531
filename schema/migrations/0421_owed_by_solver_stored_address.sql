-- What the solver owes is summed per destination currency compared as a stored address (schema/storedAddress.ts:
-- EVM hex case-blind, a base58 mint exactly), not lower() as 0371 indexed it: the index now serves that comparison.
CREATE INDEX requests_owed_by_solver_address_idx ON crossfill.requests
  (destination_chain_id,
   (CASE WHEN left(destination_currency, 2) = '0x' THEN lower(destination_currency) ELSE destination_currency END))
  WHERE status IN ('depositing', 'pending', 'submitted');
DROP INDEX crossfill.requests_owed_by_solver_idx;
