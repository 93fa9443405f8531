import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";

// The listing facts (migrations 0013, 0066, 0190): triggers keep the first standing origin deposit's block and the fill
// time on the request, for startBlock/endBlock and fillTimeMin/fillTimeMax.
describe("request listing facts", () => {
  const database = useMigratedDatabase();
  const hash = () => `0x${randomBytes(32).toString("hex")}`;
  const deposit = (requestId: string, chainId: number, block: number, timestamp: number) =>
    database.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES ($1, $2, 0, $3, '0x00', '0x00', 1000, $4, $5) RETURNING tx_hash`,
      [chainId, hash(), requestId, block, timestamp],
    );
  const facts = async (id: string) =>
    (
      await database.pool.query("SELECT deposit_block::int, fill_seconds::int FROM crossfill.requests WHERE id = $1", [
        id,
      ])
    ).rows[0];

  it("count only deposits that still stand on the origin chain", async () => {
    const request = await insertTestRequest(database.pool, { originChainId: 31338, destinationChainId: 31339 });
    const reorged = await deposit(request.id, 31338, 5, 100);
    await deposit(request.id, 31339, 3, 90); // on the wrong chain: refunded, never the request's deposit
    await deposit(request.id, 31338, 8, 130);
    await database.pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp) VALUES (31339, $1, 0, $2, 990, 9, 150)`,
      [hash(), request.id],
    );
    expect(await facts(request.id)).toEqual({ deposit_block: 5, fill_seconds: 50 });
    await database.pool.query("UPDATE crossfill.request_deposits SET reorg = '{}' WHERE tx_hash = $1", [
      reorged.rows[0].tx_hash,
    ]);
    expect(await facts(request.id)).toEqual({ deposit_block: 8, fill_seconds: 20 });
    await database.pool.query(
      "DELETE FROM crossfill.request_deposits WHERE request_id = $1 AND reorg IS NULL AND chain_id = 31338",
      [request.id],
    );
    expect(await facts(request.id)).toEqual({ deposit_block: null, fill_seconds: null });
  });

  it("leave the request's row alone when a change of its deposits does not change them", async () => {
    const request = await insertTestRequest(database.pool, { originChainId: 31338, destinationChainId: 31339 });
    await deposit(request.id, 31338, 5, 100);
    const version = async () =>
      (await database.pool.query("SELECT xmin::text FROM crossfill.requests WHERE id = $1", [request.id])).rows[0].xmin;
    const before = await version();
    await deposit(request.id, 31338, 7, 120); // a later deposit: the first still stands
    await database.pool.query("UPDATE crossfill.request_deposits SET tx_fee = 1 WHERE request_id = $1", [request.id]);
    expect(await version()).toBe(before);
    expect(await facts(request.id)).toEqual({ deposit_block: 5, fill_seconds: null });
  });
});
