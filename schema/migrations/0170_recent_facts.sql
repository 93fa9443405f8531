-- The reconcile's frequent pass reads only the facts recorded lately (jobs/reconcile.ts); the full read of the
-- history runs less often.
CREATE INDEX deposit_facts_recent_idx ON crossfill.deposit_facts (created_at);
CREATE INDEX fill_facts_recent_idx ON crossfill.fill_facts (created_at);
