import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { getFillAttempt, insertFillAttempt } from "./fillAttempts.js";
import { recordPayoutCancel } from "./recordPayoutCancel.js";
import { transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

describe("recordPayoutCancel", () => {
  const database = useMigratedDatabase();
  const payout = async (status: "submitted" | "success") => {
    const request = await insertTestRequest(database.pool);
    await withTransaction(database.pool, async (db) => {
      await transitionRequest(db, { requestId: request.id, to: "pending" });
      await insertFillAttempt(db, {
        ...{ requestId: request.id, chainId: 8253038, solver: "bcrt1qsolver", nonce: null },
        ...{ txHash: "ab".repeat(32), rawTx: "payout", currency: "btc", amount: 1000n, recipient: "bcrt1qto" },
      });
      await transitionRequest(db, { requestId: request.id, to: "submitted" });
      if (status === "success") await transitionRequest(db, { requestId: request.id, to: "success" });
    });
    return request.id;
  };

  it("stores one cancellation of an unsettled payout, none of a settled one", async () => {
    const open = await payout("submitted");
    expect(await recordPayoutCancel(database.pool, open, { txHash: "cd".repeat(32), rawTx: "cancel" })).toBe(true);
    expect(await getFillAttempt(database.pool, open)).toMatchObject({
      cancelTxHash: "cd".repeat(32),
      cancelRawTx: "cancel",
    });
    // A second run's cancellation loses to the stored one.
    expect(await recordPayoutCancel(database.pool, open, { txHash: "ef".repeat(32), rawTx: "other" })).toBe(false);
    expect((await getFillAttempt(database.pool, open))!.cancelTxHash).toBe("cd".repeat(32));
    // A success (its payout reorged out, say) is never cancelled.
    const paid = await payout("success");
    expect(await recordPayoutCancel(database.pool, paid, { txHash: "cd".repeat(32), rawTx: "cancel" })).toBe(false);
    expect((await getFillAttempt(database.pool, paid))!.cancelTxHash).toBeNull();
  });
});
