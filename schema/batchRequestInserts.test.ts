import { describe, expect, it, vi } from "vitest";
import { testRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { batchRequestInserts } from "./batchRequestInserts.js";

describe("batchRequestInserts", () => {
  const db = useMigratedDatabase({ max: 4 });
  const stored = async (ids: string[]) =>
    (
      await db.pool.query(
        `SELECT r.id, r.status, r.amount_in::text, e.to_status FROM crossfill.requests r
           JOIN crossfill.status_events e ON e.request_id = r.id WHERE r.id = ANY($1) ORDER BY r.id`,
        [ids],
      )
    ).rows;

  it("answers each quote once its request is committed, one statement carrying many under load", async () => {
    const save = batchRequestInserts(db.pool, { maxInFlight: 2 });
    const alone = testRequest();
    await save(alone);
    expect(await stored([alone.id])).toEqual([
      { id: alone.id, status: "waiting", amount_in: "1000", to_status: "waiting" },
    ]);

    const statements = vi.spyOn(db.pool, "query");
    const many = Array.from({ length: 40 }, (_, n) => testRequest({ amountIn: BigInt(1000 + n) }));
    await Promise.all(many.map((request) => save(request)));
    // two went at once, the other 38 in statements of at most 16 rows (each a prepared statement of its size)
    expect(statements.mock.calls.length).toBeLessThanOrEqual(5);
    statements.mockRestore();

    // batches larger than the prepared sizes go as plain statements
    const large = batchRequestInserts(db.pool, { maxInFlight: 1, maxBatch: 64 });
    const more = Array.from({ length: 40 }, (_, n) => testRequest({ amountIn: BigInt(2000 + n) }));
    await Promise.all(more.map((request) => large(request)));

    const saved = [...many, ...more];
    const rows = await stored(saved.map((request) => request.id));
    expect(rows).toHaveLength(80);
    expect(new Set(rows.map((row) => row.amount_in))).toEqual(new Set(saved.map((r) => r.amountIn.toString())));
    expect(rows.every((row) => row.status === "waiting" && row.to_status === "waiting")).toBe(true);
  });

  it("fails only the quote whose row is refused, when it shares a statement with others", async () => {
    const save = batchRequestInserts(db.pool, { maxInFlight: 1 });
    const taken = testRequest();
    await save(taken);
    const blocker = testRequest();
    const others = Array.from({ length: 5 }, () => testRequest());
    const duplicate = testRequest({ id: taken.id });
    // the first goes alone; the rest wait for it and go in one statement, which the duplicate id fails
    const outcomes = await Promise.allSettled([blocker, ...others, duplicate].map((request) => save(request)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([...Array(6).fill("fulfilled"), "rejected"]);
    expect(String((outcomes[6] as PromiseRejectedResult).reason)).toMatch(/duplicate key/);
    expect(await stored([blocker, ...others].map((request) => request.id))).toHaveLength(6);
  });
});
