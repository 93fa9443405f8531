-- A key's sealed webhook secret is bound to its key id (AES-GCM associated data), so a sealed value moved to another
-- key's row no longer opens. Rows sealed before stay false until a worker re-seals them (bindLegacyWebhookSecrets).
ALTER TABLE crossfill.api_keys ADD COLUMN webhook_secret_bound boolean NOT NULL DEFAULT false;
