import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { insertFillAttempt } from "./fillAttempts.js";
import { lockSolverWallet } from "./lockSolverWallet.js";
import { transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

describe("lockSolverWallet", () => {
  const database = useMigratedDatabase();
  const CHAIN = 8253038;
  const attempt = async (rawTx: string, chainId = CHAIN) => {
    const request = await insertTestRequest(database.pool);
    await withTransaction(database.pool, async (db) => {
      await transitionRequest(db, { requestId: request.id, to: "pending" });
      await insertFillAttempt(db, {
        requestId: request.id,
        chainId,
        solver: "bcrt1qsolver",
        nonce: null,
        txHash: rawTx.padEnd(64, "0"),
        rawTx,
        currency: "btc",
        amount: 1000n,
        recipient: "bcrt1qrecipient",
      });
    });
    return request.id;
  };

  it("returns the unsettled fills of the chain, and holds others off until the transaction ends", async () => {
    const open = await attempt("aa01");
    const done = await attempt("aa02");
    await attempt("aa03", 31337);
    await withTransaction(database.pool, async (db) => {
      await transitionRequest(db, { requestId: open, to: "submitted" });
      await transitionRequest(db, { requestId: done, to: "submitted" });
      await transitionRequest(db, { requestId: done, to: "success" });
    });
    expect(await withTransaction(database.pool, (db) => lockSolverWallet(db, CHAIN))).toEqual(["aa01"]);
    // A success whose payout a reorg dropped: broadcast again, so its inputs stay its own.
    await database.pool.query(
      `UPDATE crossfill.fill_attempts SET payout_reorgs = '[{"txHash": "aa02"}]'::jsonb WHERE request_id = $1`,
      [done],
    );
    expect((await withTransaction(database.pool, (db) => lockSolverWallet(db, CHAIN))).sort()).toEqual([
      "aa01",
      "aa02",
    ]);

    const order: string[] = [];
    let release!: () => void;
    const held = withTransaction(database.pool, async (db) => {
      await lockSolverWallet(db, CHAIN);
      order.push("first locked");
      await new Promise<void>((resolve) => (release = resolve));
      order.push("first done");
    });
    while (order.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = withTransaction(database.pool, async (db) => {
      await lockSolverWallet(db, CHAIN);
      order.push("second locked");
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(["first locked"]);
    release();
    await Promise.all([held, second]);
    expect(order).toEqual(["first locked", "first done", "second locked"]);
  });
});
