-- Deposit addresses are the chain family's: a quote asks the family for an address and its key (Bitcoin: the BIP84
-- derivation index; an EVM family later: the order and depositor salt of a CREATE2 address), so the table is keyed by
-- the address and keeps the family's key beside it, as text. Bitcoin's rows keep their index as their key. A key names
-- one address of its chain, as the index did.
ALTER TABLE crossfill.deposit_addresses ADD COLUMN address_key text;
UPDATE crossfill.deposit_addresses SET address_key = derivation_index::text;
ALTER TABLE crossfill.deposit_addresses ALTER COLUMN address_key SET NOT NULL;

ALTER TABLE crossfill.request_deposit_addresses DROP CONSTRAINT request_deposit_addresses_chain_id_address_fkey;
ALTER TABLE crossfill.deposit_addresses
  DROP CONSTRAINT deposit_addresses_pkey,
  DROP CONSTRAINT deposit_addresses_chain_id_address_key,
  DROP COLUMN derivation_index,
  ADD PRIMARY KEY (chain_id, address),
  ADD CONSTRAINT deposit_addresses_chain_id_address_key_key UNIQUE (chain_id, address_key);
ALTER TABLE crossfill.request_deposit_addresses
  ADD CONSTRAINT request_deposit_addresses_chain_id_address_fkey
  FOREIGN KEY (chain_id, address) REFERENCES crossfill.deposit_addresses (chain_id, address);
