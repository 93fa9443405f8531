import pino from "pino";
import { describe, expect, it } from "vitest";
import { getRequest } from "../schema/requests.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { DEBUG_FORCE_REFUND_REFERRER, admitFill } from "./admitFill.js";
import type { FillContext } from "./fillDeps.js";

describe("admitFill", () => {
  const database = useMigratedDatabase();

  /** A pending request with its deposit applied, and a fill context that records the refunds it queues. */
  async function pending(referrer?: string, debugReferrers = true) {
    const { pool } = database;
    const request = await insertTestRequest(pool, referrer ? { referrer } : {});
    await pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES ($1, $2, 0, $3, $4, $5, $6, 5, 1, '0xb5')`,
      [
        request.originChainId,
        request.id,
        request.id,
        request.user,
        request.originCurrency,
        request.amountIn.toString(),
      ],
    );
    await pool.query("UPDATE crossfill.requests SET status = 'pending', fill_amount = amount_out WHERE id = $1", [
      request.id,
    ]);
    const refunds: string[] = [];
    const context = {
      pool,
      debugReferrers,
      logger: pino({ level: "silent" }),
      enqueueRefund: async (id: string) => void refunds.push(id),
    } as unknown as FillContext;
    return { stored: (await getRequest(pool, request.id))!, context, refunds };
  }
  const statusOf = async (id: string) => (await getRequest(database.pool, id))?.status;

  it("admits a request within its fill window: nothing changes", async () => {
    const { stored, context, refunds } = await pending();
    expect(await admitFill(context, stored, Date.now() + 60_000)).toBeUndefined();
    expect(await statusOf(stored.id)).toBe("pending");
    expect(refunds).toEqual([]);
  });

  it("fails a request past its fill window (PROTOCOL_DEADLINE_EXPIRED) and queues its deposit's refund", async () => {
    const { stored, context, refunds } = await pending();
    expect(await admitFill(context, stored, Date.now() - 1)).toBe("failed: PROTOCOL_DEADLINE_EXPIRED");
    expect(await statusOf(stored.id)).toBe("failure");
    expect(refunds).toHaveLength(1);
  });

  it("refuses the devnet's debug referrer only where debug referrers are honoured", async () => {
    const refused = await pending(DEBUG_FORCE_REFUND_REFERRER);
    expect(await admitFill(refused.context, refused.stored, Date.now() + 60_000)).toBe("failed: MANUAL_ADMIN_REFUND");
    expect(refused.refunds).toHaveLength(1);
    const production = await pending(DEBUG_FORCE_REFUND_REFERRER, false);
    expect(await admitFill(production.context, production.stored, Date.now() + 60_000)).toBeUndefined();
    expect(await statusOf(production.stored.id)).toBe("pending");
  });
});
