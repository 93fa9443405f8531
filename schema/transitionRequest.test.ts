import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { getRequest } from "./requests.js";
import { type Transition, transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

describe("transitionRequest", () => {
  const database = useMigratedDatabase();
  const move = (transition: Transition) =>
    withTransaction(database.pool, (client) => transitionRequest(client, transition));
  /** The request's outbox rows, first first. */
  const moves = async (id: string) =>
    (
      await database.pool.query(
        "SELECT from_status, to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
        [id],
      )
    ).rows;
  const stored = async (id: string) => {
    const request = await getRequest(database.pool, id);
    return { status: request?.status, failReason: request?.failReason };
  };

  it("moves along the state machine with one outbox row per change, and refuses illegal moves", async () => {
    const request = await insertTestRequest(database.pool);
    expect(await move({ requestId: request.id, to: "success" })).toEqual({ applied: false, current: "waiting" });
    expect(await move({ requestId: request.id, to: "pending" })).toMatchObject({ applied: true, from: "waiting" });
    expect(await move({ requestId: request.id, to: "pending", from: ["waiting"] })).toEqual({
      applied: false,
      current: "pending",
    });
    expect(await moves(request.id)).toEqual([
      { from_status: null, to_status: "waiting" },
      { from_status: "waiting", to_status: "pending" },
    ]);
  });

  it("gives a failed or refunded request a fail reason: the one given, else the one it has, else UNKNOWN", async () => {
    const unexplained = await insertTestRequest(database.pool);
    await move({ requestId: unexplained.id, to: "failure" });
    expect(await stored(unexplained.id)).toEqual({ status: "failure", failReason: "UNKNOWN" });

    const explained = await insertTestRequest(database.pool);
    await move({ requestId: explained.id, to: "pending" });
    await move({ requestId: explained.id, to: "failure", failReason: "EXECUTION_REVERTED" });
    await move({ requestId: explained.id, to: "refund" });
    expect(await stored(explained.id)).toEqual({ status: "refund", failReason: "EXECUTION_REVERTED" });

    const pending = await insertTestRequest(database.pool);
    await move({ requestId: pending.id, to: "pending" });
    expect(await stored(pending.id)).toEqual({ status: "pending", failReason: null });
  });

  it("decides on the status committed before it, when another transaction held the request", async () => {
    const request = await insertTestRequest(database.pool);
    /** Makes `held` in a transaction that commits only after `waiting` has started and waits for its lock. */
    const whileHeld = async <T>(held: Transition, waiting: () => Promise<T>): Promise<T> => {
      const holder = await database.pool.connect();
      try {
        await holder.query("BEGIN");
        expect(await transitionRequest(holder, held)).toMatchObject({ applied: true });
        const result = waiting();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await holder.query("COMMIT");
        return await result;
      } finally {
        holder.release();
      }
    };
    // Refused from the status committed meanwhile, not the one its snapshot saw.
    expect(
      await whileHeld({ requestId: request.id, to: "pending", fillAmount: 7n }, () =>
        move({ requestId: request.id, to: "pending", from: ["waiting"] }),
      ),
    ).toEqual({ applied: false, current: "pending" });
    // Made from the status committed meanwhile, which only that one allows.
    expect(
      await whileHeld({ requestId: request.id, to: "submitted" }, () =>
        move({ requestId: request.id, to: "submitted", from: ["submitted"] }),
      ),
    ).toMatchObject({ applied: true, from: "submitted" });
    expect((await getRequest(database.pool, request.id))?.fillAmount).toBe(7n);
    expect(await moves(request.id)).toEqual([
      { from_status: null, to_status: "waiting" },
      { from_status: "waiting", to_status: "pending" },
      { from_status: "pending", to_status: "submitted" },
      { from_status: "submitted", to_status: "submitted" },
    ]);
  });

  it("answers for a request that does not exist", async () => {
    expect(await move({ requestId: `0x${"00".repeat(32)}`, to: "pending" })).toEqual({
      applied: false,
      current: undefined,
    });
  });
});
