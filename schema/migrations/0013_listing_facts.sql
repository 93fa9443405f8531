-- Per-request facts the listing filters on that live in other tables, kept on the request by triggers so a
-- range filter is a column test instead of a join per scanned row: the first origin-chain deposit's block
-- (startBlock/endBlock) and the seconds from the first deposit to the fill (fillTimeMin/fillTimeMax).
ALTER TABLE crossfill.requests ADD COLUMN deposit_block bigint, ADD COLUMN fill_seconds bigint;

CREATE FUNCTION crossfill.refresh_request_listing_facts(target text) RETURNS void LANGUAGE sql AS $$
  UPDATE crossfill.requests r
     SET deposit_block = (SELECT min(d.block_number) FROM crossfill.request_deposits d
                           WHERE d.request_id = r.id AND d.chain_id = r.origin_chain_id),
         fill_seconds = (SELECT min(f.timestamp) FROM crossfill.request_fills f WHERE f.request_id = r.id)
                      - (SELECT min(d.timestamp) FROM crossfill.request_deposits d WHERE d.request_id = r.id)
   WHERE r.id = target
$$;

CREATE FUNCTION crossfill.request_listing_facts_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM crossfill.refresh_request_listing_facts(CASE WHEN TG_OP = 'DELETE' THEN OLD.request_id ELSE NEW.request_id END);
  RETURN NULL;
END
$$;

CREATE TRIGGER request_deposits_listing_facts AFTER INSERT OR UPDATE OR DELETE ON crossfill.request_deposits
  FOR EACH ROW EXECUTE FUNCTION crossfill.request_listing_facts_trigger();
CREATE TRIGGER request_fills_listing_facts AFTER INSERT OR UPDATE OR DELETE ON crossfill.request_fills
  FOR EACH ROW EXECUTE FUNCTION crossfill.request_listing_facts_trigger();

CREATE INDEX requests_deposit_block_idx ON crossfill.requests (deposit_block) WHERE deposit_block IS NOT NULL;
CREATE INDEX requests_fail_reason_idx ON crossfill.requests (fail_reason, created_at, id) WHERE fail_reason IS NOT NULL;
CREATE INDEX requests_refund_fail_reason_idx ON crossfill.requests (refund_fail_reason, created_at, id) WHERE refund_fail_reason IS NOT NULL;
CREATE INDEX requests_origin_currency_idx ON crossfill.requests (lower(origin_currency), created_at, id);
CREATE INDEX requests_destination_currency_idx ON crossfill.requests (lower(destination_currency), created_at, id);
