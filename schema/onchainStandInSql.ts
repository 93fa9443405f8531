import { type OnchainSchema, onchainSchemaIdent } from "./onchainSchemaIdent.js";

/**
 * Tests and benchmarks only: stand-ins for Ponder's published views in schema `onchain` — tables of the same names
 * and columns (schema/onchain.ts), filled by the caller.
 */
export function onchainStandInSql(onchain: OnchainSchema): string {
  const schema = onchainSchemaIdent(onchain);
  return `
    CREATE SCHEMA ${schema};
    CREATE TABLE ${schema}.deposit (id text, chain_id integer, order_id text, depositor text, currency text, amount numeric(78,0),
      tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));
    CREATE TABLE ${schema}.fill (id text, chain_id integer, request_id text, solver text, currency text, recipient text,
      amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text,
      tx_fee numeric(78,0));
    CREATE TABLE ${schema}.withdrawal (id text, chain_id integer, order_id text, currency text, recipient text, amount numeric(78,0),
      tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text);`;
}
