-- The listing facts of a request (migration 0066) are refreshed by a row trigger on each deposit and fill applied.
-- As a SQL function the refresh was planned again on every call: about 0.5 ms of a deposit's transaction, the one a
-- client's `pending` waits on (five times that for a block of five). PL/pgSQL keeps its plan for the session. It also
-- leaves the row alone when the facts are unchanged: an update of an indexed column rewrites every index of the row.
CREATE OR REPLACE FUNCTION crossfill.refresh_request_listing_facts(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE crossfill.requests r
     SET deposit_block = facts.deposit_block, fill_seconds = facts.fill_seconds
    FROM (SELECT first.block_number AS deposit_block,
                 (SELECT min(f.timestamp) FROM crossfill.request_fills f WHERE f.request_id = target) - first.timestamp
                   AS fill_seconds
            FROM (SELECT min(d.block_number) AS block_number, min(d.timestamp) AS timestamp
                    FROM crossfill.request_deposits d JOIN crossfill.requests q ON q.id = d.request_id
                   WHERE d.request_id = target AND d.chain_id = q.origin_chain_id AND d.reorg IS NULL) first) facts
   WHERE r.id = target
     AND (r.deposit_block, r.fill_seconds) IS DISTINCT FROM (facts.deposit_block, facts.fill_seconds);
END
$$;
