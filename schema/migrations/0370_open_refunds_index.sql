-- The refunds not yet done, counted by status at every metrics scrape (crossfill_refunds_open): a partial index
-- keeps that count to the open rows however many refunds the table has settled.
CREATE INDEX refunds_open_status_idx ON crossfill.refunds (status) WHERE status IN ('queued', 'sent', 'manual', 'unrefundable');
