-- The listing's startBlock/endBlock and fillTimeMin/fillTimeMax read the first deposit that still stands on the
-- origin chain, as the request's record does (src/requests/requestRoute.ts skips reorged deposits): a deposit
-- reorged out (request_deposits.reorg set) no longer counts, nor does a deposit on another chain.
CREATE OR REPLACE FUNCTION crossfill.refresh_request_listing_facts(target text) RETURNS void LANGUAGE sql AS $$
  UPDATE crossfill.requests r
     SET deposit_block = first.block_number,
         fill_seconds = (SELECT min(f.timestamp) FROM crossfill.request_fills f WHERE f.request_id = r.id) - first.timestamp
    FROM (SELECT min(d.block_number) AS block_number, min(d.timestamp) AS timestamp
            FROM crossfill.request_deposits d JOIN crossfill.requests q ON q.id = d.request_id
           WHERE d.request_id = target AND d.chain_id = q.origin_chain_id AND d.reorg IS NULL) first
   WHERE r.id = target
$$;

SELECT crossfill.refresh_request_listing_facts(r.id)
  FROM crossfill.requests r
 WHERE EXISTS (SELECT 1 FROM crossfill.request_deposits d WHERE d.request_id = r.id AND (d.reorg IS NOT NULL OR d.chain_id <> r.origin_chain_id));
