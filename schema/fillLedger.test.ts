import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { getFillAttempt } from "./fillAttempts.js";
import { createFillLedger } from "./fillLedger.js";
import { transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

describe("createFillLedger", () => {
  const database = useMigratedDatabase();
  const fill = (requestId: string) => ({
    requestId,
    chainId: 31339,
    solver: "0xAbC0000000000000000000000000000000000002",
    nonce: 4,
    txHash: `0x${"ab".repeat(32)}`,
    rawTx: "0x01",
    currency: "0x0000000000000000000000000000000000000000",
    amount: 5n,
    recipient: "0xAbC0000000000000000000000000000000000003",
  });

  it("stores a fill once, then its replacement, its broadcast failures and one cancellation", async () => {
    const ledger = createFillLedger(database.pool);
    const request = await insertTestRequest(database.pool);
    expect(await ledger.transaction((tx) => tx.storeFill(fill(request.id)))).toBe(true);
    expect(await ledger.transaction((tx) => tx.storeFill({ ...fill(request.id), rawTx: "0x02" }))).toBe(false);

    const next = { txHash: `0x${"cd".repeat(32)}`, rawTx: "0x03" };
    expect(await ledger.recordReplacement(request.id, fill(request.id).txHash, next)).toBe(true);
    // Replaced already: a second run that signed from the old version stores nothing.
    expect(await ledger.recordReplacement(request.id, fill(request.id).txHash, next)).toBe(false);
    expect(await ledger.recordBroadcastFailure(request.id, "nonce too low")).toBe(1);
    expect(await ledger.recordBroadcastFailure(request.id, "nonce too low")).toBe(2);

    const cancel = { txHash: `0x${"ef".repeat(32)}`, rawTx: "0x04" };
    expect(await ledger.recordCancel(request.id, cancel, null)).toBe(true);
    expect(await ledger.recordCancel(request.id, { ...cancel, rawTx: "0x05" }, null)).toBe(false);
    expect(await getFillAttempt(database.pool, request.id)).toMatchObject({
      txHash: next.txHash,
      rawTx: "0x03",
      previousTxHashes: [fill(request.id).txHash],
      bumps: 1,
      broadcastFailures: 2,
      cancelTxHash: cancel.txHash,
    });
  });

  it("stores a payout's cancellation only while its request's fill is unresolved", async () => {
    const ledger = createFillLedger(database.pool);
    const request = await insertTestRequest(database.pool);
    await ledger.transaction((tx) => tx.storeFill({ ...fill(request.id), nonce: null }));
    const cancel = { txHash: `0x${"ef".repeat(32)}`, rawTx: "0x04" };
    // Still `waiting`: no fill of it is unresolved yet.
    expect(await ledger.recordPayoutCancel(request.id, cancel)).toBe(false);
    await withTransaction(database.pool, (db) => transitionRequest(db, { requestId: request.id, to: "pending" }));
    expect(await ledger.recordPayoutCancel(request.id, cancel)).toBe(true);
  });

  it("hands out nonces one at a time: the next after the saved one, or the chain's pending count when higher", async () => {
    const ledger = createFillLedger(database.pool);
    const solver = "0xAbC00000000000000000000000000000000000aa";
    const sign = (chainPending: number) =>
      ledger.transaction(async (tx) => {
        const nonce = await tx.lockNextNonce(31339, solver, chainPending);
        await tx.saveNextNonce(31339, solver, nonce + 1);
        return nonce;
      });
    expect(await Promise.all([sign(3), sign(3), sign(3)]).then((nonces) => nonces.sort())).toEqual([3, 4, 5]);
    expect(await sign(9)).toBe(9);
    // Rolled back: the nonce it took is handed out again.
    await expect(
      ledger.transaction(async (tx) => {
        await tx.lockNextNonce(31339, solver, 0);
        await tx.saveNextNonce(31339, solver, 11);
        throw new Error("signing failed");
      }),
    ).rejects.toThrow("signing failed");
    expect(await sign(0)).toBe(10);
  });
});
