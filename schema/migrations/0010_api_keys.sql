-- API keys: looked up by the sha256 of the key (never stored in plain text). The webhook signing secret is
-- the key itself (the spec's HMAC is keyed with the API key), kept AES-256-GCM encrypted under a server key.
CREATE TABLE crossfill.api_keys (
  id                    text PRIMARY KEY,
  name                  text,
  integrator            text NOT NULL,
  elevated              boolean NOT NULL DEFAULT false,
  key_hash              bytea NOT NULL UNIQUE,
  webhook_secret_cipher bytea NOT NULL,
  created_at            timestamptz NOT NULL DEFAULT now(),
  revoked_at            timestamptz
);
CREATE INDEX api_keys_integrator_idx ON crossfill.api_keys (integrator);

-- The key a quote was made with (null for keyless quotes, which the official client makes).
ALTER TABLE crossfill.requests ADD COLUMN api_key_id text REFERENCES crossfill.api_keys (id);
