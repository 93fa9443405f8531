import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listRequestDeposits } from "../schema/requestDeposits.js";
import { getRequest } from "../schema/requests.js";
import { fillWindowEnd } from "../src/domain/fillWindowEnd.js";
import { testFamilyFill } from "../test/support/testFamilyFill.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { checkFillDeposit } from "./checkFillDeposit.js";

/** Over the test family's real adapter and ledgers: its deposits confirm, move and vanish as its blocks do. */
describe("checkFillDeposit", () => {
  const database = useMigratedDatabase();
  const requestOf = async (id: string) => (await getRequest(database.pool, id))!;
  const depositRows = async (requestId: string) =>
    (
      await database.pool.query<{ block_hash: string; reorg: Record<string, unknown> | null }>(
        "SELECT block_hash, reorg FROM crossfill.request_deposits WHERE request_id = $1",
        [requestId],
      )
    ).rows;

  it("passes a deposit with its confirmations, answering the end of the fill window; nothing changes", async () => {
    const fill = testFamilyFill(database.pool);
    const { request, deposit } = await fill.pendingRequest();
    const windowEnd = fillWindowEnd({ deadline: request.deadline, requiredConfirmations: 0, blockTimeSeconds: 1 });
    expect(await checkFillDeposit(fill.context, request, deposit)).toEqual({ windowEnd });
    expect((await requestOf(request.id)).status).toBe("pending");
    expect([fill.refunds, fill.requeued]).toEqual([[], []]);
  });

  it("queues the fill again for a deposit short of its confirmations, after their blocks, keyed by the height awaited", async () => {
    const fill = testFamilyFill(database.pool);
    const context = fill.patched(fill.origin.id, { requiredConfirmations: () => 3 });
    const { request, deposit } = await fill.pendingRequest();
    // The deposit's own block is its first confirmation.
    expect(await checkFillDeposit(context, request, deposit)).toBe("confirming: 2 blocks to go");
    expect(fill.requeued).toEqual([{ requestId: request.id, delayMs: 2_000, key: `${deposit.blockNumber + 2n}` }]);
    fill.ledgers.origin.mine(2);
    expect(await checkFillDeposit(context, request, deposit)).toMatchObject({ windowEnd: expect.any(Number) });
    expect((await requestOf(request.id)).status).toBe("pending");
    expect(fill.refunds).toEqual([]);
  });

  it("fails a deposit still confirming past its fill window and queues its refund", async () => {
    const fill = testFamilyFill(database.pool);
    const context = fill.patched(fill.origin.id, { requiredConfirmations: () => 3 });
    // Deadline, the allowed wait for 3 one-second blocks (6× each) and the 10-minute fill window all behind us.
    const { request, deposit } = await fill.pendingRequest({ deadline: new Date(Date.now() - 11 * 60_000) });
    expect(await checkFillDeposit(context, request, deposit)).toBe("failed: DEPOSIT_CONFIRMATION_TIMEOUT");
    const failed = await requestOf(request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "DEPOSIT_CONFIRMATION_TIMEOUT"]);
    expect(fill.refunds).toHaveLength(1);
    expect(fill.requeued).toEqual([]);
  });

  it("follows a deposit a reorg mined again in another block, and waits for its confirmations there", async () => {
    const fill = testFamilyFill(database.pool);
    const { request, deposit } = await fill.pendingRequest();
    fill.ledgers.origin.reorg(1);
    fill.ledgers.origin.mine(1);
    const moved = await checkFillDeposit(fill.context, request, deposit);
    const [row] = await depositRows(request.id);
    expect(row.block_hash).not.toBe(deposit.blockHash);
    expect(row.reorg).toBeNull();
    expect(moved).toBe(`moved: deposit now in block ${fill.ledgers.origin.blocks.length - 1}`);
    expect(fill.requeued).toEqual([{ requestId: request.id, delayMs: 200, key: `moved-${row.block_hash}` }]);
    expect((await requestOf(request.id)).status).toBe("pending");
    // Where it is now, it has its confirmations.
    const [there] = await listRequestDeposits(database.pool, request.id);
    expect(await checkFillDeposit(fill.context, request, there)).toMatchObject({ windowEnd: expect.any(Number) });
  });

  it("fails as reorged a moved deposit whose new block's deposit another request holds already, refunding nothing", async () => {
    const fill = testFamilyFill(database.pool);
    const { request, deposit } = await fill.pendingRequest();
    fill.ledgers.origin.reorg(1);
    fill.ledgers.origin.mine(1);
    // Another request applied the deposit as mined again (the same transaction in the new block) first.
    const other = await fill.pendingRequest();
    const [there] = await fill.context.adapters.deposits(fill.origin.id).readDepositFacts(deposit.txHash);
    await database.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        there.chainId,
        there.txHash,
        there.position,
        other.request.id,
        there.depositor,
        there.currency,
        there.amount.toString(),
        there.blockNumber.toString(),
        there.timestamp.toString(),
        there.blockHash,
      ],
    );
    expect(await checkFillDeposit(fill.context, request, deposit)).toBe("failed: DEPOSIT_REORGED");
    const failed = await requestOf(request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "DEPOSIT_REORGED"]);
    const [row] = await depositRows(request.id);
    expect(row.reorg).toMatchObject({ reason: "deposit mined in another block", blockHash: deposit.blockHash });
    expect(fill.refunds).toEqual([]);
  });

  it("fails a request whose deposit a reorg took out, marking the deposit reorged and refunding nothing", async () => {
    const fill = testFamilyFill(database.pool);
    const { request, deposit } = await fill.pendingRequest();
    fill.ledgers.origin.reorg(1, [deposit.txHash]);
    expect(await checkFillDeposit(fill.context, request, deposit)).toBe("failed: DEPOSIT_REORGED");
    const failed = await requestOf(request.id);
    expect([failed.status, failed.failReason]).toEqual(["failure", "DEPOSIT_REORGED"]);
    const [row] = await depositRows(request.id);
    expect(row.reorg).toMatchObject({ source: "fill-check", blockHash: deposit.blockHash });
    // Nothing arrived: no refund, and no fill queued.
    expect([fill.refunds, fill.requeued]).toEqual([[], []]);
  });

  it("fails with the chain's own reason a mempool deposit double-spent before it confirmed", async () => {
    const fill = testFamilyFill(database.pool);
    // A test chain has no mempool deposits; the reason is the adapter's, as Bitcoin's check gives it.
    const reorg = { source: "fill-check", reason: "double-spent", blockHash: `0x${randomBytes(4).toString("hex")}` };
    const context = fill.patched(fill.origin.id, {
      checkDeposit: async () => ({ state: "reorged", failReason: "DOUBLE_SPEND", reorg }),
    });
    const { request, deposit } = await fill.pendingRequest();
    expect(await checkFillDeposit(context, request, deposit)).toBe("failed: DOUBLE_SPEND");
    expect((await requestOf(request.id)).failReason).toBe("DOUBLE_SPEND");
    expect((await depositRows(request.id))[0].reorg).toMatchObject(reorg);
  });

  it("leaves a request another run already failed as it is", async () => {
    const fill = testFamilyFill(database.pool);
    const { request, deposit } = await fill.pendingRequest();
    await database.pool.query("UPDATE crossfill.requests SET status = 'failure' WHERE id = $1", [request.id]);
    fill.ledgers.origin.reorg(1, [deposit.txHash]);
    expect(await checkFillDeposit(fill.context, request, deposit)).toBe("failed: DEPOSIT_REORGED");
    expect((await requestOf(request.id)).failReason).toBeNull();
  });
});
