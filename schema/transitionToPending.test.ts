import { randomBytes } from "node:crypto";
import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { canTransition } from "../src/domain/requestStatus.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { lockRequests } from "./requests.js";
import { transitionRequest } from "./transitionRequest.js";
import { type PendingMove, transitionToPending } from "./transitionToPending.js";
import { withTransaction } from "./withTransaction.js";

describe("transitionToPending", () => {
  const database = useMigratedDatabase();
  const move = (moves: PendingMove[]) =>
    withTransaction(database.pool, async (client) => {
      await lockRequests(
        client,
        moves.map((move) => move.deposit.requestId),
      );
      return transitionToPending(client, moves);
    });
  const paying = (request: { id: string; orderId: string }, fillAmount: bigint, n: number): PendingMove => ({
    deposit: {
      chainId: 31338,
      txHash: `0x${randomBytes(32).toString("hex")}`,
      logIndex: n,
      orderId: request.orderId,
      depositor: "0xabc",
      currency: zeroAddress,
      amount: 1000n,
      blockNumber: BigInt(100 + n),
      blockHash: "0xblock",
      timestamp: 1n,
      txFrom: "0xabc",
      txFee: 7n,
      requestId: request.id,
    },
    fillAmount,
    details: { n },
  });

  it("applies the deposits and moves waiting requests to pending with their fill amounts and one outbox row each, in order", async () => {
    expect(canTransition("waiting", "pending")).toBe(true);
    const [a, b, done] = await Promise.all([1, 2, 3].map(() => insertTestRequest(database.pool)));
    await withTransaction(database.pool, (client) => transitionRequest(client, { requestId: done.id, to: "pending" }));
    const moved = await move([paying(b, 20n, 1), paying(done, 30n, 2), paying(a, 10n, 3)]);
    expect(moved).toEqual([b.id, a.id]);
    const { rows: events } = await database.pool.query(
      `SELECT request_id, from_status, to_status, details FROM crossfill.status_events
        WHERE request_id = ANY($1) AND to_status = 'pending' ORDER BY id`,
      [[a.id, b.id, done.id]],
    );
    expect(events).toEqual([
      { request_id: done.id, from_status: "waiting", to_status: "pending", details: null },
      { request_id: b.id, from_status: "waiting", to_status: "pending", details: { n: 1 } },
      { request_id: a.id, from_status: "waiting", to_status: "pending", details: { n: 3 } },
    ]);
    // Each deposit recorded, the one of a request no longer waiting too; the listing facts' trigger saw them.
    const { rows } = await database.pool.query(
      `SELECT r.id, r.status, r.fill_amount::text, r.deposit_block::int, d.amount::text, d.tx_fee::text
         FROM crossfill.requests r JOIN crossfill.request_deposits d ON d.request_id = r.id
        WHERE r.id = ANY($1) ORDER BY r.deposit_block`,
      [[a.id, b.id, done.id]],
    );
    expect(rows).toEqual([
      { id: b.id, status: "pending", fill_amount: "20", deposit_block: 101, amount: "1000", tx_fee: "7" },
      { id: done.id, status: "pending", fill_amount: null, deposit_block: 102, amount: "1000", tx_fee: "7" },
      { id: a.id, status: "pending", fill_amount: "10", deposit_block: 103, amount: "1000", tx_fee: "7" },
    ]);
    expect(await move([])).toEqual([]);
  });
});
