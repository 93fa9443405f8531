import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { lockFillSigning } from "./lockFillSigning.js";
import { withTransaction } from "./withTransaction.js";

describe("lockFillSigning", () => {
  const database = useMigratedDatabase();

  it("holds a second signer of the same request off until the first transaction ends, and no other request's", async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = withTransaction(database.pool, async (db) => {
      await lockFillSigning(db, "0xaa");
      order.push("first locked");
      await new Promise<void>((resolve) => (release = resolve));
      order.push("first done");
    });
    while (order.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await withTransaction(database.pool, (db) => lockFillSigning(db, "0xbb"));
    order.push("other request locked");
    const second = withTransaction(database.pool, async (db) => {
      await lockFillSigning(db, "0xaa");
      order.push("second locked");
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first locked", "other request locked", "first done", "second locked"]);
  });
});
