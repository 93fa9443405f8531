import type pg from "pg";
import { rebuildRequestCounts } from "./rebuildRequestCounts.js";
import { rebuildRequestStatsRollup } from "./rebuildRequestStatsRollup.js";

export type BenchSeed = { requests: number; integrators: number; chainIds: number[]; wallets: number };

/** Runs each step on its own pooled connection, all at once. */
async function onEach(pool: pg.Pool, steps: Array<(client: pg.PoolClient) => Promise<void>>): Promise<void> {
  await Promise.all(
    steps.map(async (step) => {
      const client = await pool.connect();
      try {
        await step(client);
      } finally {
        client.release();
      }
    }),
  );
}

/**
 * Benchmark data only: `integrators` API keys (key `cf_bench_<n>` of integrator `integrator-<n>`) and `requests`
 * requests spread over the chains, every status, a year of creation times, ~100k wallets, with deposits for every
 * request past `waiting` and fills for the successful ones. Deterministic (setseed) so runs compare.
 */
export async function seedBenchRequests(
  pool: pg.Pool,
  seed: BenchSeed,
  log: (phase: string) => void = () => undefined,
): Promise<void> {
  const db = await pool.connect();
  try {
    await seedOn(pool, db, seed, log);
  } finally {
    db.release();
  }
}

// Block hashes are a function of the block number: benchSeededFacts (schema/seedBenchChainFacts.ts) gives the
// indexer's rows the same ones.
const DEPOSITS_SQL = `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, block_hash, timestamp)
     SELECT origin_chain_id, '0x' || md5('deposit' || id) || md5('deposit:' || id), 0, id, user_address, origin_currency, amount_in,
            floor(extract(epoch FROM created_at) / 2)::bigint - 800000000,
            '0x' || md5('block' || (floor(extract(epoch FROM created_at) / 2)::bigint - 800000000)),
            floor(extract(epoch FROM created_at))::bigint
       FROM crossfill.requests WHERE status <> 'waiting'`;

const FILLS_SQL = `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, block_hash, timestamp)
     SELECT destination_chain_id, '0x' || md5('fill' || id) || md5('fill:' || id), 0, id, amount_out,
            floor(extract(epoch FROM created_at) / 2)::bigint - 799999990,
            '0x' || md5('block' || (floor(extract(epoch FROM created_at) / 2)::bigint - 799999990)),
            floor(extract(epoch FROM created_at))::bigint + 3 + (get_byte(decode(md5(id), 'hex'), 0) % 40)
       FROM crossfill.requests WHERE status = 'success'`;

const REQUESTS_SQL = `WITH draws AS (
       SELECT g, random() AS s, random() AS c, random() AS d, random() AS k, random() AS t, random() AS a, random() AS w, random() AS x
         FROM generate_series($1::int, $5::int) g),
     shaped AS (
       SELECT g, t, k, w, x,
              CASE WHEN s < 0.78 THEN 'success' WHEN s < 0.83 THEN 'waiting' WHEN s < 0.87 THEN 'refund' WHEN s < 0.91 THEN 'failure'
                   WHEN s < 0.94 THEN 'pending' WHEN s < 0.97 THEN 'depositing' ELSE 'submitted' END AS status,
              ($2::bigint[])[1 + floor(c * cardinality($2::bigint[]))::int] AS origin,
              ($2::bigint[])[1 + ((floor(c * cardinality($2::bigint[]))::int + 1 + floor(d * (cardinality($2::bigint[]) - 1))::int) % cardinality($2::bigint[]))] AS destination,
              (ARRAY['ETH', 'USDC', 'USDC', 'WETH'])[1 + floor(d * 4)::int] AS symbol_in,
              (ARRAY['ETH', 'USDC', 'WETH', 'USDC'])[1 + floor(a * 4)::int] AS symbol_out,
              round((exp(a * 12) - 1)::numeric, 2) AS usd,
              now() - t * interval '365 days' AS created
         FROM draws),
     rows AS (
       SELECT *, '0x' || lpad(to_hex(1 + floor(w * $3)::int), 40, '0') AS wallet,
              CASE WHEN k < 0.7 THEN 1 + floor(k / 0.7 * k / 0.7 * $4)::int END AS key_no
         FROM shaped)
     INSERT INTO crossfill.requests (id, order_id, status, request_type, trade_type, user_address, recipient, refund_to,
       origin_chain_id, destination_chain_id, origin_currency, destination_currency, amount_in, amount_out, minimum_amount_out,
       slippage_bps, deadline, referrer, order_data, quote, fail_reason, refund_fail_reason, api_key_id, created_at, updated_at,
       deposit_block, fill_seconds)
     SELECT '0x' || md5('request' || g) || md5('request:' || g),
            '0x' || md5('order' || g) || md5('order:' || g),
            status,
            CASE WHEN symbol_in = symbol_out THEN 'Bridge' WHEN x < 0.05 THEN 'Call' ELSE 'Crosschain Swap' END,
            'EXACT_INPUT', wallet,
            CASE WHEN x < 0.8 THEN wallet ELSE '0x' || lpad(to_hex(1 + floor(x * $3)::int), 40, '0') END,
            wallet, origin, destination,
            CASE symbol_in WHEN 'ETH' THEN '0x0000000000000000000000000000000000000000' ELSE '0x' || left(encode(sha256(convert_to(origin || symbol_in, 'UTF8')), 'hex'), 40) END,
            CASE symbol_out WHEN 'ETH' THEN '0x0000000000000000000000000000000000000000' ELSE '0x' || left(encode(sha256(convert_to(destination || symbol_out, 'UTF8')), 'hex'), 40) END,
            (usd * 1000000)::numeric(78,0) + 1, (usd * 999000)::numeric(78,0) + 1, (usd * 999000)::numeric(78,0) + 1,
            50, created + interval '10 minutes',
            CASE WHEN key_no IS NOT NULL THEN 'app-' || key_no || CASE WHEN x < 0.5 THEN '.web' ELSE '.mobile' END END,
            '{}'::jsonb,
            jsonb_build_object(
              'details', jsonb_build_object(
                'currencyIn', jsonb_build_object('currency', jsonb_build_object('chainId', origin, 'symbol', symbol_in, 'decimals', 6), 'amount', ((usd * 1000000)::numeric(78,0) + 1)::text, 'amountUsd', usd::text),
                'currencyOut', jsonb_build_object('currency', jsonb_build_object('chainId', destination, 'symbol', symbol_out, 'decimals', 6), 'amount', ((usd * 999000)::numeric(78,0) + 1)::text, 'amountUsd', (usd * 0.999)::text),
                'rate', '0.999', 'timeEstimate', 4),
              'fees', jsonb_build_object('app', jsonb_build_object('amount', CASE WHEN x < 0.1 THEN '1000' ELSE '0' END, 'amountUsd', CASE WHEN x < 0.1 THEN round((usd * 0.001)::numeric, 6)::text ELSE '0' END))),
            CASE WHEN status IN ('failure', 'refund') THEN (ARRAY['SOLVER_BALANCE_TOO_LOW', 'SLIPPAGE', 'ORDER_EXPIRED', 'DOUBLE_SPEND', 'TRANSACTION_REVERTED'])[1 + floor(x * 5)::int] END,
            CASE WHEN status = 'refund' AND x < 0.1 THEN 'MANUAL_REFUND_REQUIRED' END,
            CASE WHEN key_no IS NOT NULL THEN 'key_bench_' || key_no END,
            created, created + interval '30 seconds',
            -- what the deposit and fill triggers would set for the rows inserted below
            CASE WHEN status <> 'waiting' THEN floor(extract(epoch FROM created) / 2)::bigint - 800000000 END,
            CASE WHEN status = 'success' THEN 3 + get_byte(decode(md5('0x' || md5('request' || g) || md5('request:' || g)), 'hex'), 0) % 40 END
       FROM rows`;

async function seedOn(pool: pg.Pool, db: pg.PoolClient, seed: BenchSeed, log: (phase: string) => void): Promise<void> {
  await db.query("SET maintenance_work_mem = '512MB'; SET synchronous_commit = off");
  // Bulk loading: secondary indexes are dropped and rebuilt afterwards (a sorted build is many times faster
  // than a million random insertions); constraints' indexes stay.
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE schemaname = 'crossfill' AND tablename IN ('requests', 'request_deposits', 'request_fills')
        AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = 'crossfill'::regnamespace)`,
  );
  for (const index of indexes) await db.query(`DROP INDEX crossfill."${index.name}"`);
  await db.query("SELECT setseed(0.42)");
  await db.query(
    `INSERT INTO crossfill.api_keys (id, name, integrator, elevated, key_hash, webhook_secret_cipher)
     SELECT 'key_bench_' || g, 'bench-' || g, 'integrator-' || g, true, sha256(convert_to('cf_bench_' || g, 'UTF8')), '\\x00'::bytea
       FROM generate_series(1, $1) g`,
    [seed.integrators],
  );
  log("indexes dropped");
  // Two halves at once, one per core, each with its own seed; without the requestStats rollup triggers (an upsert
  // per row), rebuilt once below.
  const half = Math.ceil(seed.requests / 2);
  await onEach(
    pool,
    [
      [0.42, 1, half],
      [0.43, half + 1, seed.requests],
    ].map(([random, first, last]) => async (client: pg.PoolClient) => {
      await client.query("SET synchronous_commit = off; SET session_replication_role = replica");
      await client.query("SELECT setseed($1)", [random]);
      await client.query(REQUESTS_SQL, [first, seed.chainIds, seed.wallets, seed.integrators, last]);
      await client.query("RESET session_replication_role");
    }),
  );
  log("requests inserted");
  // Deposits and fills go in with triggers (and foreign-key checks) off: their listing facts were set above.
  await onEach(
    pool,
    [DEPOSITS_SQL, FILLS_SQL].map((sql) => async (client: pg.PoolClient) => {
      await client.query("SET synchronous_commit = off; SET session_replication_role = replica");
      await client.query(sql);
      await client.query("RESET session_replication_role");
    }),
  );
  log("deposits and fills inserted");
  // Two builders at a time (one per core).
  const queue = [...indexes];
  await Promise.all(
    [0, 1].map(async () => {
      const builder = await pool.connect();
      try {
        await builder.query("SET maintenance_work_mem = '512MB'");
        for (let index = queue.shift(); index; index = queue.shift()) await builder.query(index.definition);
      } finally {
        builder.release();
      }
    }),
  );
  log("indexes rebuilt");
  await rebuildRequestStatsRollup(db);
  log("requestStats rollup built");
  await rebuildRequestCounts(db);
  log("listing counts built");
  // A steady-state table: autovacuum would have set the visibility map that index-only counts rely on.
  for (const table of [
    "requests",
    "request_deposits",
    "request_fills",
    "api_keys",
    "request_stats_daily",
    "request_fill_stats_daily",
    "request_counts_by_chain",
    "request_counts_by_key",
  ]) {
    await db.query(`VACUUM (ANALYZE) crossfill.${table}`);
  }
  log("vacuumed");
}
