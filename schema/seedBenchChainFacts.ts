import { type OnchainSchema, onchainSchemaIdent } from "./chainFacts.js";
import { onchainStandInSql } from "./onchainStandInSql.js";
import type { Queryable } from "./queryable.js";

/**
 * Benchmark data only: the indexer's rows for every deposit and fill seedBenchRequests applied, in `onchain` — a schema
 * of stand-ins for Ponder's views (schema/onchainStandInSql.ts), created afresh here with the indexes schema/onchain.ts
 * gives Ponder's tables (its primary key on `id` as a unique index). The reconcile then reads a history of that size,
 * all of it applied.
 */
export async function seedBenchChainFacts(db: Queryable, onchain: OnchainSchema): Promise<void> {
  const schema = onchainSchemaIdent(onchain);
  await db.query(`
    DROP SCHEMA IF EXISTS ${schema} CASCADE;
    ${onchainStandInSql(onchain)}
    INSERT INTO ${schema}.deposit
      SELECT d.chain_id || ':' || d.tx_hash || ':0', d.chain_id, r.order_id, d.depositor, d.currency, d.amount, d.tx_hash,
             d.log_index, d.block_number, d.block_hash, d.timestamp, d.depositor, 21000000000000
        FROM crossfill.request_deposits d JOIN crossfill.requests r ON r.id = d.request_id;
    INSERT INTO ${schema}.fill
      SELECT f.chain_id || ':' || f.tx_hash || ':0', f.chain_id, f.request_id, r.recipient, r.destination_currency,
             r.recipient, f.amount, f.tx_hash, f.log_index, f.block_number, f.block_hash, f.timestamp, r.recipient,
             55000000000000
        FROM crossfill.request_fills f JOIN crossfill.requests r ON r.id = f.request_id;
    CREATE UNIQUE INDEX ON ${schema}.deposit (id);
    CREATE INDEX ON ${schema}.deposit (order_id);
    CREATE INDEX ON ${schema}.deposit (chain_id, tx_hash);
    CREATE INDEX ON ${schema}.deposit (timestamp);
    CREATE UNIQUE INDEX ON ${schema}.fill (id);
    CREATE INDEX ON ${schema}.fill (request_id);
    CREATE INDEX ON ${schema}.fill (chain_id, tx_hash);
    CREATE INDEX ON ${schema}.fill (timestamp);
    ANALYZE ${schema}.deposit;
    ANALYZE ${schema}.fill;`);
}
