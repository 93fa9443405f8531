-- A further deposit for an order already paid becomes a child request of its own (id, status, DOUBLE_SPEND,
-- refund), linked to the order's request: its depositor can follow it by id, and includeChildRequests lists it
-- with its parent. A child shares its parent's order id, so the order id is unique among parents only.
ALTER TABLE crossfill.requests ADD COLUMN parent_request_id text REFERENCES crossfill.requests (id);
ALTER TABLE crossfill.requests DROP CONSTRAINT requests_order_id_key;
CREATE UNIQUE INDEX requests_order_id_idx ON crossfill.requests (order_id) WHERE parent_request_id IS NULL;
CREATE INDEX requests_parent_idx ON crossfill.requests (parent_request_id) WHERE parent_request_id IS NOT NULL;
