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
        moves.map((move) => move.requestId),
      );
      return transitionToPending(client, moves);
    });

  it("moves waiting requests to pending with their fill amounts and one outbox row each, in the order given", async () => {
    expect(canTransition("waiting", "pending")).toBe(true);
    const [a, b, done] = await Promise.all([1, 2, 3].map(() => insertTestRequest(database.pool)));
    await withTransaction(database.pool, (client) => transitionRequest(client, { requestId: done.id, to: "pending" }));
    const moved = await move([
      { requestId: b.id, fillAmount: 20n, details: { n: 1 } },
      { requestId: done.id, fillAmount: 30n, details: { n: 2 } },
      { requestId: a.id, fillAmount: 10n, details: { n: 3 } },
    ]);
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
    const { rows } = await database.pool.query(
      "SELECT id, status, fill_amount::text FROM crossfill.requests WHERE id = ANY($1) ORDER BY fill_amount",
      [[a.id, b.id, done.id]],
    );
    expect(rows).toEqual([
      { id: a.id, status: "pending", fill_amount: "10" },
      { id: b.id, status: "pending", fill_amount: "20" },
      { id: done.id, status: "pending", fill_amount: null },
    ]);
    expect(await move([])).toEqual([]);
  });
});
