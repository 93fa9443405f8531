import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { lockRequests } from "./requests.js";
import { withTransaction } from "./withTransaction.js";

describe("lockRequests", () => {
  const database = useMigratedDatabase();

  it("reads the requests in id order, leaves out missing ids, and holds their row locks until the transaction ends", async () => {
    const requests = await Promise.all([1, 2, 3].map(() => insertTestRequest(database.pool)));
    const ids = requests.map((request) => request.id);
    const other = await database.pool.connect();
    try {
      await withTransaction(database.pool, async (client) => {
        const locked = await lockRequests(client, [...ids, `0x${"0".repeat(64)}`]);
        expect(locked.map((request) => request.id)).toEqual([...ids].sort());
        expect(locked.map((request) => request.status)).toEqual(["waiting", "waiting", "waiting"]);
        await expect(
          other.query("SELECT 1 FROM crossfill.requests WHERE id = $1 FOR UPDATE NOWAIT", [ids[1]]),
        ).rejects.toThrow(/could not obtain lock/);
      });
      const { rowCount } = await other.query("SELECT 1 FROM crossfill.requests WHERE id = $1 FOR UPDATE NOWAIT", [
        ids[1],
      ]);
      expect(rowCount).toBe(1);
    } finally {
      other.release();
    }
  });
});
