import type { OnchainSchema } from "./chainFacts.js";
import { onchainSchemaIdent } from "./chainFacts.js";
import type { Queryable } from "./requests.js";

/**
 * Benchmark data only: the indexer's rows for every deposit and fill seedBenchRequests applied, in `onchain` — a schema
 * shaped like Ponder's views (tables `deposit` and `fill` with their columns), created here with the indexes
 * schema/onchain.ts gives Ponder's tables, and emptied first. The reconcile then reads a history of that size, all of
 * it applied.
 */
export async function seedBenchChainFacts(db: Queryable, onchain: OnchainSchema): Promise<void> {
  const schema = onchainSchemaIdent(onchain);
  await db.query(`
    CREATE SCHEMA IF NOT EXISTS ${schema};
    DROP TABLE IF EXISTS ${schema}.deposit, ${schema}.fill;
    CREATE TABLE ${schema}.deposit (id text PRIMARY KEY, chain_id integer, order_id text, depositor text, currency text,
      amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text,
      timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));
    CREATE TABLE ${schema}.fill (id text PRIMARY KEY, chain_id integer, request_id text, solver text, currency text,
      recipient text, amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text,
      timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));
    INSERT INTO ${schema}.deposit
      SELECT d.chain_id || ':' || d.tx_hash || ':0', d.chain_id, r.order_id, d.depositor, d.currency, d.amount, d.tx_hash,
             d.log_index, d.block_number, d.block_hash, d.timestamp, d.depositor, 21000000000000
        FROM crossfill.request_deposits d JOIN crossfill.requests r ON r.id = d.request_id;
    INSERT INTO ${schema}.fill
      SELECT f.chain_id || ':' || f.tx_hash || ':0', f.chain_id, f.request_id, r.recipient, r.destination_currency,
             r.recipient, f.amount, f.tx_hash, f.log_index, f.block_number, f.block_hash, f.timestamp, r.recipient,
             55000000000000
        FROM crossfill.request_fills f JOIN crossfill.requests r ON r.id = f.request_id;
    CREATE INDEX ON ${schema}.deposit (order_id);
    CREATE INDEX ON ${schema}.deposit (chain_id, tx_hash);
    CREATE INDEX ON ${schema}.deposit (timestamp);
    CREATE INDEX ON ${schema}.fill (request_id);
    CREATE INDEX ON ${schema}.fill (chain_id, tx_hash);
    CREATE INDEX ON ${schema}.fill (timestamp);
    ANALYZE ${schema}.deposit;
    ANALYZE ${schema}.fill;`);
}
