-- The dashboard (web/): a key the operator marked for management (`crossfill keys create --manage`,
-- `crossfill keys manage <id>`) may create, rename and revoke its own integrator's keys and set their webhooks.
ALTER TABLE crossfill.api_keys ADD COLUMN manages_keys boolean NOT NULL DEFAULT false;

-- A test event ("Send test event") is a delivery of no status event: its own request_id (`test_<id>`), so it
-- never waits behind, nor holds up, a request's events; the sweep starts it as it starts a replay.
ALTER TABLE crossfill.webhook_deliveries ALTER COLUMN status_event_id DROP NOT NULL;
