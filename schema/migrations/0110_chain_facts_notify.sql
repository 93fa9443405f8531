-- New chain facts in the app's own fact tables (pollers, POST /transactions/index) wake the reconcile at once instead
-- of at its next tick: a NOTIFY on commit, one per statement. Ponder's tables take no triggers; its handlers send
-- the same notification themselves (indexers/evm/src).
CREATE FUNCTION crossfill.notify_chain_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('crossfill_chain_facts', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER deposit_facts_notify AFTER INSERT ON crossfill.deposit_facts
  FOR EACH STATEMENT EXECUTE FUNCTION crossfill.notify_chain_facts();
CREATE TRIGGER fill_facts_notify AFTER INSERT ON crossfill.fill_facts
  FOR EACH STATEMENT EXECUTE FUNCTION crossfill.notify_chain_facts();
CREATE TRIGGER withdrawal_facts_notify AFTER INSERT ON crossfill.withdrawal_facts
  FOR EACH STATEMENT EXECUTE FUNCTION crossfill.notify_chain_facts();
