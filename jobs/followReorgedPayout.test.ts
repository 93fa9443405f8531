import { describe, expect, it } from "vitest";
import { getFillAttempt } from "../schema/fillAttempts.js";
import { getRequest } from "../schema/requests.js";
import type { ChainAdapter } from "../src/chains/adapter.js";
import type { StoredFillAttempt } from "../src/chains/fillLedger.js";
import { testFamilyFill } from "../test/support/testFamilyFill.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { followReorgedPayout } from "./followReorgedPayout.js";
import { followSentFill } from "./followSentFill.js";
import { prepareSolverFill } from "./prepareSolverFill.js";
import { signAndStoreFill } from "./signAndStoreFill.js";

/** Over the test family's real adapter: a payout mined on its ledger, then reorged out of it. */
describe("followReorgedPayout", () => {
  const database = useMigratedDatabase();

  /** A request paid by a mined fill and marked success, whose payout's block a reorg then replaced. */
  async function reorgedPayout(options: { dropPayout: boolean; patch?: Partial<ChainAdapter> }) {
    const fill = testFamilyFill(database.pool);
    const { request } = await fill.pendingRequest();
    const ready = await prepareSolverFill(fill.context, request, 990n);
    if (typeof ready === "string") throw new Error(ready);
    const sent = (await signAndStoreFill(
      fill.context,
      request,
      ready.solver,
      ready.transaction,
      990n,
    )) as StoredFillAttempt;
    await followSentFill(fill.context, request, sent);
    fill.ledgers.destination.mine(1);
    await database.pool.query("UPDATE crossfill.requests SET status = 'success' WHERE id = $1", [request.id]);
    fill.ledgers.destination.reorg(1, options.dropPayout ? [sent.txHash] : []);
    const context = options.patch ? fill.patched(fill.destination.id, options.patch) : fill.context;
    return { fill, context, request, sent };
  }
  const statusOf = async (id: string) => (await getRequest(database.pool, id))?.status;

  it("broadcasts the same stored payout again while it is missing, until it is mined again: paid once", async () => {
    const { fill, context, request, sent } = await reorgedPayout({ dropPayout: true });
    expect(fill.ledgers.destination.find(sent.txHash)).toBeUndefined();
    expect(await followReorgedPayout(context, request.id)).toBe(`payout re-sent: ${sent.txHash}`);
    expect(fill.ledgers.destination.find(sent.txHash)?.height).toBe(-1);
    fill.ledgers.destination.mine(1);
    expect(await followReorgedPayout(context, request.id)).toBe(`payout mined again: ${sent.txHash}`);
    expect(fill.ledgers.destination.balance(request.recipient)).toBe(990n);
    // No second payout was signed or stored, and the request stays success.
    expect((await getFillAttempt(database.pool, request.id))?.txHash).toBe(sent.txHash);
    expect(await statusOf(request.id)).toBe("success");
  });

  it("leaves a payout the reorg put back in the mempool there, sending nothing new", async () => {
    const { fill, context, request, sent } = await reorgedPayout({ dropPayout: false });
    expect(await followReorgedPayout(context, request.id)).toBe(`payout re-sent: ${sent.txHash}`);
    expect(fill.ledgers.destination.mempool.size).toBe(1);
  });

  it("makes no second payout when the stored one can never be mined again: an operator must look", async () => {
    for (const [patch, result] of [
      [
        { followFill: async () => ({ state: "cancelled", nonceSpentBy: `tx${"e".repeat(64)}`, neverAccepted: false }) },
        "payout lost: cancelled",
      ],
      [
        {
          followFill: async (attempt: StoredFillAttempt) => ({
            state: "reverted",
            txHash: attempt.txHash,
            failure: { failReason: "EXECUTION_REVERTED", details: {} },
            failedTransaction: {
              txHash: attempt.txHash,
              blockNumber: 1n,
              timestamp: 1n,
              fee: 1n,
              call: { from: "", to: "", data: "0x", value: "0" },
            },
          }),
        },
        "payout lost: reverted",
      ],
    ] as const) {
      const { fill, context, request, sent } = await reorgedPayout({
        dropPayout: true,
        patch: patch as Partial<ChainAdapter>,
      });
      expect(await followReorgedPayout(context, request.id)).toBe(result);
      expect(fill.ledgers.destination.find(sent.txHash)).toBeUndefined();
      expect(await statusOf(request.id)).toBe("success");
      expect(fill.refunds).toEqual([]);
    }
  });
});
