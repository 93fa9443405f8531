import { randomBytes } from "node:crypto";
import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { markRefundStuck, queueRefund } from "../schema/refunds.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runRefundsCommand } from "./runRefundsCommand.js";

describe("crossfill refunds", () => {
  const database = useMigratedDatabase();
  const hash = () => `0x${randomBytes(32).toString("hex")}`;

  /** A failed request whose refund is stuck, as the refund job leaves it. */
  async function stuckRefund() {
    const request = await insertTestRequest(database.pool);
    await database.pool.query(
      "UPDATE crossfill.requests SET status = 'failure', fail_reason = 'EXECUTION_REVERTED', refund_fail_reason = 'MANUAL_REFUND_REQUIRED' WHERE id = $1",
      [request.id],
    );
    const refundId = (await queueRefund(database.pool, {
      requestId: request.id,
      deposit: { chainId: 31338, txHash: hash(), position: 0, currency: zeroAddress, amount: 1000n },
      reason: "EXECUTION_REVERTED",
      refundsRequest: true,
      recipient: request.refundTo,
    }))!;
    await markRefundStuck(database.pool, refundId, "manual", "MANUAL_REFUND_REQUIRED", "the refund withdrawal reverts");
    return { request, refundId };
  }
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runRefundsCommand(database.pool, argv, (line) => lines.push(line));
    return { code, lines };
  };

  it("lists stuck refunds and settles one paid by hand, moving its request to refund", async () => {
    const { request, refundId } = await stuckRefund();
    const listed = await run("list");
    expect(listed.code).toBe(0);
    expect(listed.lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ id: refundId, requestId: request.id, status: "manual" }),
    );

    const txHash = hash();
    expect((await run("settle", refundId, "--tx", txHash, "--note", "paid from the treasury")).code).toBe(0);
    const { rows } = await database.pool.query(
      "SELECT status, refund_fail_reason FROM crossfill.requests WHERE id = $1",
      [request.id],
    );
    expect(rows[0]).toEqual({ status: "refund", refund_fail_reason: null });
    const refund = await database.pool.query("SELECT status, tx_hash, note FROM crossfill.refunds WHERE id = $1", [
      refundId,
    ]);
    expect(refund.rows[0]).toEqual({ status: "settled", tx_hash: txHash, note: "paid from the treasury" });
    const events = await database.pool.query(
      "SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
      [request.id],
    );
    expect(events.rows.at(-1)).toEqual({ to_status: "refund" });
    // settling twice changes nothing
    expect((await run("settle", refundId, "--tx", txHash)).code).toBe(1);
  });

  it("requeues a stuck refund to another recipient and clears the request's refundFailReason", async () => {
    const { request, refundId } = await stuckRefund();
    const to = `0x${"ab".repeat(20)}`;
    expect((await run("retry", refundId, "--to", to)).code).toBe(0);
    const refund = await database.pool.query("SELECT status, recipient FROM crossfill.refunds WHERE id = $1", [
      refundId,
    ]);
    expect(refund.rows[0]).toEqual({ status: "queued", recipient: to });
    const { rows } = await database.pool.query(
      "SELECT status, refund_fail_reason FROM crossfill.requests WHERE id = $1",
      [request.id],
    );
    expect(rows[0]).toEqual({ status: "failure", refund_fail_reason: null });
  });

  it("refuses bad arguments without writing", async () => {
    const { refundId } = await stuckRefund();
    expect((await run("retry", refundId, "--to", "nope")).code).toBe(1);
    expect((await run("settle", refundId)).code).toBe(1);
    expect((await run("settle", refundId, "--tx", "0x12")).code).toBe(1);
    expect((await run("bogus")).code).toBe(2);
    const refund = await database.pool.query("SELECT status FROM crossfill.refunds WHERE id = $1", [refundId]);
    expect(refund.rows[0].status).toBe("manual");
  });

  it("lists Bitcoin deposits that named no request with their refunds, filtered by status", async () => {
    const chainId = 8253038;
    await database.pool.query(
      `INSERT INTO crossfill.unmatched_refunds (chain_id, deposit_tx_hash, deposit_log_index, order_id, recipient, deposited, status, refund_fail_reason, note)
       VALUES ($1, 'dust', 0, '', 'bcrt1qpayer', 330, 'unrefundable', 'AMOUNT_TOO_LOW_TO_REFUND', '330 against 187'),
              ($1, 'waiting', 1, '', 'bcrt1qother', 50000, 'queued', NULL, NULL)`,
      [chainId],
    );
    await database.pool.query(
      `INSERT INTO crossfill.unmatched_refunds (chain_id, deposit_tx_hash, deposit_log_index, order_id, recipient, currency, deposited, status, amount, fee, tx_hash, raw_tx)
       VALUES ($1, 'paid', 0, '', 'bcrt1qpayer', 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8', 20000, 'sent', 19813, 187, 'refund tx', 'raw')`,
      [chainId],
    );
    const all = await run("unmatched");
    expect(all.code).toBe(0);
    const rows = all.lines.map((line) => JSON.parse(line));
    expect(rows.map((row) => row.status).sort()).toEqual(["queued", "sent", "unrefundable"]);
    expect(rows).toContainEqual({
      chainId,
      depositTxHash: "paid",
      depositPosition: 0,
      orderId: "",
      depositor: "bcrt1qpayer",
      currency: "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8",
      deposited: "20000",
      status: "sent",
      amount: "19813",
      fee: "187",
      refundTxHash: "refund tx",
      refundFailReason: null,
      note: null,
    });
    const stuck = await run("unmatched", "--status", "unrefundable");
    expect(stuck.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ depositTxHash: "dust", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" }),
    ]);
    expect((await run("unmatched", "--status", "lost")).code).not.toBe(0);
  });
});
