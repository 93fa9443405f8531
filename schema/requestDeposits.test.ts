import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { findAppliedDeposit, moveAppliedDeposit } from "./requestDeposits.js";

const hash = () => `0x${randomBytes(32).toString("hex")}`;

describe("applied deposits a reorg moves", () => {
  const db = useMigratedDatabase();

  /** A request with one deposit applied in a block. */
  async function applied(txHash = hash(), position = 3) {
    const request = await insertTestRequest(db.pool);
    const deposit = { chainId: 31338, txHash, position, blockHash: hash(), blockNumber: 10n };
    await db.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES ($1, $2, $3, $4, '0xabc', '0x0000000000000000000000000000000000000000', 1000, 10, 1, $5)`,
      [deposit.chainId, txHash, position, request.id, deposit.blockHash],
    );
    return { request, deposit };
  }

  it("moves it once, and a second run holding the old place finds it moved: followed, not lost", async () => {
    const { request, deposit } = await applied();
    const to = { position: 1, blockNumber: 11n, blockHash: hash(), timestamp: 2n };
    expect(await moveAppliedDeposit(db.pool, request.id, deposit, to)).toBe(true);
    // The second run read the deposit before the move.
    expect(await moveAppliedDeposit(db.pool, request.id, deposit, to)).toBe(true);
    expect(await findAppliedDeposit(db.pool, { ...deposit, position: 1 })).toMatchObject({
      reorged: false,
      deposit: { blockHash: to.blockHash, blockNumber: 11n, position: 1 },
    });
    expect(await findAppliedDeposit(db.pool, deposit)).toBeUndefined();
  });

  it("does not move it where another request's deposit stands, nor count that one as its own", async () => {
    const { request, deposit } = await applied();
    const to = { position: 0, blockNumber: 12n, blockHash: hash(), timestamp: 2n };
    // The re-mined payment, applied meanwhile to a child request of its own.
    const child = await insertTestRequest(db.pool);
    await db.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES ($1, $2, 0, $3, '0xabc', '0x0000000000000000000000000000000000000000', 1000, 12, 2, $4)`,
      [deposit.chainId, deposit.txHash, child.id, to.blockHash],
    );
    expect(await moveAppliedDeposit(db.pool, request.id, deposit, to)).toBe(false);
    expect(await findAppliedDeposit(db.pool, deposit)).toMatchObject({ deposit: { blockHash: deposit.blockHash } });
  });

  it("moves nothing that was reorged out", async () => {
    const { request, deposit } = await applied();
    await db.pool.query(`UPDATE crossfill.request_deposits SET reorg = '{}' WHERE request_id = $1`, [request.id]);
    const to = { position: 2, blockNumber: 13n, blockHash: hash(), timestamp: 3n };
    expect(await moveAppliedDeposit(db.pool, request.id, deposit, to)).toBe(false);
    expect(await findAppliedDeposit(db.pool, deposit)).toMatchObject({ reorged: true });
  });
});
