import { describe, expect, it } from "vitest";
import { insertFillAttempt } from "../schema/fillAttempts.js";
import { getRequest } from "../schema/requests.js";
import { withTransaction } from "../schema/withTransaction.js";
import { TEST_FEE, TEST_NATIVE_CURRENCY } from "../test/testFamily/testChainFamily.js";
import { testFamilyFill } from "../test/support/testFamilyFill.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { prepareSolverFill } from "./prepareSolverFill.js";

/** Over the test family's real adapter: the solver's balance is its ledger's, the fill a transfer it builds. */
describe("prepareSolverFill", () => {
  const database = useMigratedDatabase();
  const requestOf = async (id: string) => (await getRequest(database.pool, id))!;
  const refusal = {
    failure: { failReason: "SOLVER_CAPACITY_EXCEEDED" as const, details: { message: "the call reverted" } },
    call: { from: "tst1" + "5".repeat(40), to: "tst1" + "c".repeat(40), value: 5n, data: "0x" },
    revertData: undefined,
  };

  it("hands back the destination's solver and the fill paying the recipient, changing nothing", async () => {
    const fill = testFamilyFill(database.pool);
    const { request } = await fill.pendingRequest();
    const prepared = await prepareSolverFill(fill.context, request, 990n);
    if (typeof prepared === "string") throw new Error(prepared);
    expect(prepared.solver.chain.id).toBe(fill.destination.id);
    expect(prepared.transaction).toEqual({
      chainId: fill.destination.id,
      payload: { signer: fill.destination.solver, payer: fill.destination.solver, to: request.recipient, amount: 990n },
    });
    // Prepared, not signed or sent.
    expect(fill.ledgers.destination.mempool.size).toBe(0);
    expect((await requestOf(request.id)).status).toBe("pending");
    expect(fill.refunds).toEqual([]);
  });

  it("needs the payout and the fill's fee when it pays in the native currency: one unit short fails the request", async () => {
    const fill = testFamilyFill(database.pool);
    const { solver } = fill.destination;
    fill.ledgers.destination.balances.set(solver, 990n + TEST_FEE);
    const enough = await fill.pendingRequest();
    expect(typeof (await prepareSolverFill(fill.context, enough.request, 990n))).toBe("object");

    fill.ledgers.destination.balances.set(solver, 990n + TEST_FEE - 1n);
    const { request } = await fill.pendingRequest();
    expect(await prepareSolverFill(fill.context, request, 990n)).toBe("failed: SOLVER_BALANCE_TOO_LOW");
    const failed = await requestOf(request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "SOLVER_BALANCE_TOO_LOW"]);
    expect(fill.refunds).toHaveLength(1);
  });

  it("fails a fill the destination refuses in simulation with its reason and the call that reverted", async () => {
    const fill = testFamilyFill(database.pool);
    const context = fill.patched(fill.destination.id, { prepareFill: async () => ({ refusal }) });
    const { request } = await fill.pendingRequest();
    expect(await prepareSolverFill(context, request, 990n)).toBe("failed: SOLVER_CAPACITY_EXCEEDED");
    const failed = await requestOf(request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "SOLVER_CAPACITY_EXCEEDED"]);
    expect(failed.failedTransaction).toMatchObject({ txHash: null, call: { ...refusal.call, value: "5" } });
    expect(fill.refunds).toHaveLength(1);
  });

  it("reports a same-chain swap's refused attempt as TRANSACTION_REVERTED, as the spec does", async () => {
    const fill = testFamilyFill(database.pool);
    const context = fill.patched(fill.destination.id, { prepareFill: async () => ({ refusal }) });
    const { request } = await fill.pendingRequest({ requestType: "Same-chain Swap" });
    expect(await prepareSolverFill(context, request, 990n)).toBe("failed: TRANSACTION_REVERTED");
  });

  it("never fails a request another run stored a fill for meanwhile (its simulation reverts on the paid order)", async () => {
    const fill = testFamilyFill(database.pool);
    const { request } = await fill.pendingRequest();
    const context = fill.patched(fill.destination.id, {
      async prepareFill() {
        await withTransaction(database.pool, async (db) => {
          await insertFillAttempt(db, {
            requestId: request.id,
            chainId: fill.destination.id,
            solver: fill.destination.solver,
            nonce: 0,
            txHash: `tx${"1".repeat(64)}`,
            rawTx: "{}",
            currency: TEST_NATIVE_CURRENCY,
            amount: 990n,
            recipient: request.recipient,
          });
        });
        return { refusal };
      },
    });
    expect(await prepareSolverFill(context, request, 990n)).toBe("skipped: a fill was sent meanwhile");
    expect((await requestOf(request.id)).status).toBe("pending");
    expect(fill.refunds).toEqual([]);
  });

  it("refuses to convert on a chain with no wrapped native", async () => {
    const fill = testFamilyFill(database.pool);
    const { request } = await fill.pendingRequest({ requestType: "Wrap", destinationChainId: fill.origin.id });
    await expect(prepareSolverFill(fill.context, request, 990n)).rejects.toThrow(
      `chain ${fill.origin.id} has no wrapped native to convert`,
    );
  });
});
