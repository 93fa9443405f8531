import { zeroAddress } from "viem";
import type { Queryable } from "../../schema/requests.js";

// Stand-ins for Ponder's published views: same names and columns, filled by the test.
export const ONCHAIN_FIXTURE = `
  CREATE SCHEMA onchain_fixture;
  CREATE TABLE onchain_fixture.deposit (id text, chain_id integer, order_id text, depositor text, currency text, amount numeric(78,0),
    tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));
  CREATE TABLE onchain_fixture.fill (id text, chain_id integer, request_id text, solver text, currency text, recipient text,
    amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text,
    tx_fee numeric(78,0));
  CREATE TABLE onchain_fixture.withdrawal (id text, chain_id integer, order_id text, currency text, recipient text, amount numeric(78,0),
    tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text);`;

/** Ponder's row of a fill of `requestId` by `txHash` on chain 31339 (log 0, block 11), in `onchain_fixture`. */
export function insertIndexedFill(db: Queryable, requestId: string, txHash: string, logIndex = 0) {
  return db.query(
    `INSERT INTO onchain_fixture.fill VALUES ($1, 31339, $2, '0xsolver', $3, '0xrecipient', 990, $4, $5, 11, '0xblock', 1700000000, '0xsolver', 1)`,
    [`31339:${txHash}:${logIndex}`, requestId, zeroAddress, txHash, logIndex],
  );
}
