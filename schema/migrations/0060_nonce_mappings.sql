-- Nonce mappings of the perps-exchange withdrawal flow (POST /authorize): the exchange transfer carries no
-- request id, only its sender and nonce, so the signed mapping is what ties a transfer to its request.
-- One (depositor, nonce) belongs to one request, ever; a request may hold several (a re-signed attempt).
CREATE TABLE crossfill.nonce_mappings (
  depositor          text NOT NULL,
  nonce              numeric(78, 0) NOT NULL,
  request_id         text NOT NULL REFERENCES crossfill.requests (id),
  wallet             text NOT NULL,
  wallet_chain_id    bigint NOT NULL,
  signature_chain_id bigint NOT NULL,
  signature          text NOT NULL,
  api_key_id         text REFERENCES crossfill.api_keys (id),
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (depositor, nonce)
);
CREATE INDEX nonce_mappings_request_idx ON crossfill.nonce_mappings (request_id);
