import { describe, expect, it } from "vitest";
import { getRequest } from "../schema/requests.js";
import type { ChainAdapter } from "../src/chains/adapter.js";
import type { StoredFillAttempt } from "../src/chains/fillLedger.js";
import { testFamilyFill } from "../test/support/testFamilyFill.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import type { ReceiptConfirmer } from "./createReceiptConfirmer.js";
import type { FillContext } from "./fillDeps.js";
import { followSentFill } from "./followSentFill.js";
import { prepareSolverFill } from "./prepareSolverFill.js";
import { signAndStoreFill } from "./signAndStoreFill.js";

/** Over the test family's real adapter: a stored fill is broadcast to its ledger and mined there. */
describe("followSentFill", () => {
  const database = useMigratedDatabase();
  const requestOf = async (id: string) => (await getRequest(database.pool, id))!;

  /** A request with its fill signed and stored (not broadcast), and a receipt confirmer that records its calls. */
  async function stored(patch?: Partial<ChainAdapter>) {
    const fill = testFamilyFill(database.pool);
    const receipts = { watched: [] as unknown[], confirmed: [] as unknown[] };
    const confirmer: ReceiptConfirmer = {
      watch: (sent) => void receipts.watched.push(sent),
      confirm: async (sent) => void receipts.confirmed.push(sent),
      close: async () => undefined,
    };
    const base = patch ? fill.patched(fill.destination.id, patch) : fill.context;
    const context: FillContext = { ...base, receipts: confirmer };
    const { request } = await fill.pendingRequest();
    const ready = await prepareSolverFill(context, request, 990n);
    if (typeof ready === "string") throw new Error(ready);
    const sent = (await signAndStoreFill(context, request, ready.solver, ready.transaction, 990n)) as StoredFillAttempt;
    return { fill, context, request, sent, receipts };
  }
  const submittedDetails = async (requestId: string) =>
    (
      await database.pool.query(
        "SELECT details FROM crossfill.status_events WHERE request_id = $1 AND to_status = 'submitted'",
        [requestId],
      )
    ).rows.map((row) => row.details);

  it("broadcasts a stored fill and marks the request submitted, watching its receipt", async () => {
    const { fill, context, request, sent, receipts } = await stored();
    expect(await followSentFill(context, request, sent)).toBe(sent.txHash);
    expect(fill.ledgers.destination.find(sent.txHash)?.height).toBe(-1);
    expect((await requestOf(request.id)).status).toBe("submitted");
    expect(await submittedDetails(request.id)).toEqual([{ fillTxHash: sent.txHash, nonce: 0 }]);
    const watched = { requestId: request.id, chainId: fill.destination.id, txHash: sent.txHash };
    expect(receipts).toEqual({ watched: [watched], confirmed: [] });
  });

  it("confirms a mined fill's receipt at once, and a second run changes nothing more", async () => {
    const { fill, context, request, sent, receipts } = await stored();
    await followSentFill(context, request, sent);
    fill.ledgers.destination.mine(1);
    expect(await followSentFill(context, request, sent)).toBe(sent.txHash);
    expect(receipts.confirmed).toEqual([{ requestId: request.id, chainId: fill.destination.id, txHash: sent.txHash }]);
    // Paid once, submitted once.
    expect(fill.ledgers.destination.balance(request.recipient)).toBe(990n);
    expect(await submittedDetails(request.id)).toHaveLength(1);
  });

  it("fails a fill mined and reverted, with the failed transaction, and refunds the deposit", async () => {
    const failedTransaction = {
      txHash: `tx${"9".repeat(64)}`,
      blockNumber: 4n,
      timestamp: 1_004n,
      fee: 10n,
      call: { from: "tst1solver", to: "tst1recipient", data: "0x", value: "990" },
    };
    const { fill, context, request, sent } = await stored({
      followFill: async () => ({
        state: "reverted",
        txHash: failedTransaction.txHash,
        failure: { failReason: "EXECUTION_REVERTED", details: { revert: "0x" } },
        failedTransaction,
      }),
    });
    expect(await followSentFill(context, request, sent)).toBe("failed: EXECUTION_REVERTED");
    const failed = await requestOf(request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "EXECUTION_REVERTED"]);
    expect(failed.failedTransaction).toEqual(failedTransaction);
    expect(fill.refunds).toHaveLength(1);
  });

  it("fails a cancelled fill by whether the node ever took it, naming every version and the cancellation", async () => {
    for (const [neverAccepted, failReason] of [
      [true, "TRANSACTION_SUBMISSION_FAILED"],
      [false, "TRANSACTION_NOT_INCLUDED"],
    ] as const) {
      const { fill, context, request, sent, receipts } = await stored({
        followFill: async () => ({ state: "cancelled", nonceSpentBy: `tx${"c".repeat(64)}`, neverAccepted }),
      });
      // Already submitted by an earlier run: a sent fill fails from there too.
      await database.pool.query("UPDATE crossfill.requests SET status = 'submitted' WHERE id = $1", [request.id]);
      expect(await followSentFill(context, request, sent)).toBe(`failed: ${failReason}`);
      const { rows } = await database.pool.query(
        "SELECT details FROM crossfill.status_events WHERE request_id = $1 AND to_status = 'failure'",
        [request.id],
      );
      expect(rows[0].details).toMatchObject({ fillTxHashes: [sent.txHash], nonceSpentBy: `tx${"c".repeat(64)}` });
      expect(fill.refunds).toHaveLength(1);
      expect(receipts).toEqual({ watched: [], confirmed: [] });
    }
  });

  it("watches no receipt of a fill whose nonce is being spent on a cancellation", async () => {
    const { context, request, sent, receipts } = await stored({
      followFill: async (attempt) => ({ state: "in-flight", txHash: attempt.txHash, action: "cancelling" }),
    });
    expect(await followSentFill(context, request, sent)).toBe(sent.txHash);
    expect((await requestOf(request.id)).status).toBe("submitted");
    expect(receipts).toEqual({ watched: [], confirmed: [] });
  });
});
