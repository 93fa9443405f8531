import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { openRefundCounts } from "./openRefundCounts.js";
import { queueRefund } from "./refunds.js";

describe("openRefundCounts", () => {
  const db = useMigratedDatabase();

  it("counts refunds in each open status, every open status present, done ones left out", async () => {
    expect(await openRefundCounts(db.pool)).toEqual({ queued: 0, sent: 0, manual: 0, unrefundable: 0 });
    const request = await insertTestRequest(db.pool);
    const refund = (n: number) =>
      queueRefund(db.pool, {
        requestId: request.id,
        deposit: { chainId: 31338, txHash: `0x${n}`, position: 0, currency: request.originCurrency, amount: 1000n },
        reason: "SLIPPAGE",
        refundsRequest: n === 1,
        recipient: request.user,
      });
    const ids = await Promise.all([1, 2, 3, 4].map(refund));
    await db.pool.query("UPDATE crossfill.refunds SET status = 'manual' WHERE id = $1", [ids[1]]);
    await db.pool.query("UPDATE crossfill.refunds SET status = 'confirmed' WHERE id = $1", [ids[2]]);
    expect(await openRefundCounts(db.pool)).toEqual({ queued: 2, sent: 0, manual: 1, unrefundable: 0 });
  });
});
