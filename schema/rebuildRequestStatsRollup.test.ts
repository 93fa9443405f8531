import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertStatsRequest } from "../test/support/insertStatsRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { foldRequestStatsChanges } from "./foldRequestStatsChanges.js";
import { rebuildRequestStatsRollup } from "./rebuildRequestStatsRollup.js";
import { transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

// What the rollups must equal: a GROUP BY over the raw rows, sums as printed (their scale included).
const EXPECTED_TOTALS = `
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') AS day, origin_chain_id::int, destination_chain_id::int, status,
         currency_in_symbol, fail_reason, count(*)::int AS n, sum(amount_usd)::text AS volume, sum(fees_usd)::text AS fees
    FROM crossfill.requests GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`;
// The rollups with the changes not folded yet, as requestStats reads them: groups left with rows (a scale each).
const ROLLUP_TOTALS = `
  SELECT day, origin_chain_id::int, destination_chain_id::int, status, currency_in_symbol, fail_reason, sum(n)::int AS n, sum(volume)::text AS volume, sum(fees)::text AS fees
    FROM (SELECT day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, sum(n) AS n, sum(volume) AS volume, sum(fees) AS fees
            FROM (SELECT * FROM crossfill.request_stats_daily UNION ALL SELECT * FROM crossfill.request_stats_daily_changes) c
           GROUP BY day, origin_chain_id, destination_chain_id, status, currency_in_symbol, fail_reason, volume_scale, fees_scale HAVING sum(n) > 0) g
   GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`;
const EXPECTED_FILLS = `
  SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') AS day, origin_chain_id::int, destination_chain_id::int, status,
         currency_in_symbol, fail_reason, fill_seconds::int, count(*)::int AS n
    FROM crossfill.requests WHERE fill_seconds IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`;
const ROLLUP_FILLS = `
  SELECT day, origin_chain_id::int, destination_chain_id::int, status, currency_in_symbol, fail_reason, fill_seconds::int, sum(n)::int AS n
    FROM (SELECT * FROM crossfill.request_fill_stats_daily UNION ALL SELECT * FROM crossfill.request_fill_stats_daily_changes) c
   GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(n) > 0 ORDER BY 1, 2, 3, 4, 5, 6, 7`;

describe("requestStats rollups (triggers and rebuildRequestStatsRollup)", () => {
  const database = useMigratedDatabase({ max: 2 });

  const expectRollupsEqualRows = async (step: string) => {
    expect((await database.pool.query(ROLLUP_TOTALS)).rows, step).toEqual(
      (await database.pool.query(EXPECTED_TOTALS)).rows,
    );
    expect((await database.pool.query(ROLLUP_FILLS)).rows, step).toEqual(
      (await database.pool.query(EXPECTED_FILLS)).rows,
    );
    // and so after folding the changes in, which leaves no group without rows
    expect(await foldRequestStatsChanges(database.pool), step).not.toBeNull();
    expect((await database.pool.query(ROLLUP_TOTALS)).rows, `${step}, folded`).toEqual(
      (await database.pool.query(EXPECTED_TOTALS)).rows,
    );
    expect((await database.pool.query(ROLLUP_FILLS)).rows, `${step}, folded`).toEqual(
      (await database.pool.query(EXPECTED_FILLS)).rows,
    );
    const { rows } = await database.pool
      .query(`SELECT (SELECT count(*) FROM crossfill.request_stats_daily_changes) + (SELECT count(*) FROM crossfill.request_fill_stats_daily_changes)
      + (SELECT count(*) FROM crossfill.request_stats_daily WHERE n <= 0) + (SELECT count(*) FROM crossfill.request_fill_stats_daily WHERE n <= 0) AS left`);
    expect(Number(rows[0].left), `${step}, folded`).toBe(0);
  };
  const move = (
    requestId: string,
    to: "depositing" | "pending" | "submitted" | "success" | "failure" | "refund",
    failReason?: string,
  ) =>
    withTransaction(database.pool, async (client) =>
      expect((await transitionRequest(client, { requestId, to, failReason: failReason as never })).applied).toBe(true),
    );
  const deposit = (requestId: string, timestamp: number) =>
    database.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES (1, $1, 0, $2, '0x00', '0x00', 1000, 7, $3)`,
      [`0x${randomBytes(32).toString("hex")}`, requestId, timestamp],
    );
  const fill = (requestId: string, timestamp: number) =>
    database.pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp) VALUES (10, $1, 0, $2, 990, 9, $3)`,
      [`0x${randomBytes(32).toString("hex")}`, requestId, timestamp],
    );

  it("stays equal to a GROUP BY over the requests through inserts, status changes, fills, edits and deletes", async () => {
    const base = { origin: 1, destination: 10, symbol: "USDC", createdAt: "2026-05-01T10:00:00Z", status: "waiting" };
    // Same group, sums of different scales: 1.5 + 2.25 + 3 prints 6.75, and the scale must drop when 2.25 leaves.
    const a = await insertStatsRequest(database.pool, { ...base, amountUsd: "1.5", relayerFeeUsd: "0.1" });
    const b = await insertStatsRequest(database.pool, { ...base, amountUsd: "2.25", relayerFeeUsd: "0.125" });
    const c = await insertStatsRequest(database.pool, { ...base, amountUsd: "3", relayerFeeUsd: "0.5" });
    const d = await insertStatsRequest(database.pool, {
      ...base,
      symbol: "ETH",
      createdAt: "2026-05-01T23:59:59.999Z",
      amountUsd: "1000.000001",
    });
    const e = await insertStatsRequest(database.pool, {
      ...base,
      createdAt: "2026-05-02T00:00:00Z",
      amountUsd: "7.0",
      fillSeconds: 12,
      status: "success",
    });
    await expectRollupsEqualRows("inserted");

    // waiting → pending → success, with the deposit and fill facts that set fill_seconds (migration 0013's triggers)
    await move(b, "pending");
    await expectRollupsEqualRows("b pending: leaves its group (the 2-decimal scale goes with it)");
    await deposit(b, 1_700_000_000);
    await move(b, "submitted");
    await fill(b, 1_700_000_017);
    await expectRollupsEqualRows("b filled while submitted");
    await move(b, "success");
    await expectRollupsEqualRows("b success");
    // a corrected fill timestamp changes the fill time
    await database.pool.query("UPDATE crossfill.request_fills SET timestamp = 1700000009 WHERE request_id = $1", [b]);
    await expectRollupsEqualRows("b's fill time changed");

    // failure with a fail reason, then refund
    await move(a, "failure", "SLIPPAGE");
    await expectRollupsEqualRows("a failure");
    await move(a, "refund");
    await expectRollupsEqualRows("a refund");
    await move(d, "depositing");
    await move(d, "failure", "ORDER_EXPIRED");
    await expectRollupsEqualRows("d failure");

    // edits of the dimensions and measures themselves: creation day, chain, quote (amount 3 → 3.000)
    await database.pool.query("UPDATE crossfill.requests SET created_at = '2026-05-03T01:00:00Z' WHERE id = $1", [c]);
    await database.pool.query("UPDATE crossfill.requests SET destination_chain_id = 8453 WHERE id = $1", [e]);
    await database.pool.query(
      `UPDATE crossfill.requests SET quote = jsonb_set(quote, '{details,currencyIn,amountUsd}', '"3.000"') WHERE id = $1`,
      [c],
    );
    await expectRollupsEqualRows("edited");

    // deletes: the last row of a group removes the group
    await database.pool.query("DELETE FROM crossfill.request_fills WHERE request_id = $1", [b]);
    await expectRollupsEqualRows("b's fills deleted");
    await database.pool.query("DELETE FROM crossfill.request_deposits WHERE request_id = ANY($1)", [[b, e]]);
    await database.pool.query("DELETE FROM crossfill.status_events WHERE request_id = ANY($1)", [[b, d]]);
    await database.pool.query("DELETE FROM crossfill.requests WHERE id = ANY($1)", [[b, d]]);
    await expectRollupsEqualRows("deleted");
  });

  it("never makes two transactions changing requests of the same group wait for each other", async () => {
    const base = {
      origin: 1,
      destination: 10,
      symbol: "USDC",
      createdAt: "2026-05-05T10:00:00Z",
      status: "waiting",
      amountUsd: "1",
    };
    const [slow, fast] = [await insertStatsRequest(database.pool, base), await insertStatsRequest(database.pool, base)];
    const client = await database.pool.connect();
    try {
      await client.query("BEGIN");
      await transitionRequest(client, { requestId: slow, to: "pending" });
      await move(fast, "pending"); // would wait for the open transaction's lock on the group's row
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    await expectRollupsEqualRows("both pending");
  });

  it("rebuilds both rollups from the rows after writes that bypassed the triggers", async () => {
    for (let i = 0; i < 20; i++) {
      await insertStatsRequest(database.pool, {
        origin: [1, 10][i % 2],
        destination: 8453,
        symbol: ["ETH", "USDC", "WETH"][i % 3],
        createdAt: `2026-06-0${1 + (i % 3)}T0${i % 10}:00:00Z`,
        status: ["success", "failure", "pending"][i % 3],
        failReason: i % 3 === 1 ? "SLIPPAGE" : undefined,
        amountUsd: `${i}.${i}`,
        relayerFeeUsd: `0.0${i}`,
        fillSeconds: i % 3 === 0 ? i : undefined,
      });
    }
    await expectRollupsEqualRows("inserted");
    const client = await database.pool.connect();
    try {
      await client.query("SET session_replication_role = replica");
      await client.query("UPDATE crossfill.requests SET status = 'success' WHERE status = 'pending'");
      await client.query("RESET session_replication_role");
    } finally {
      client.release();
    }
    expect((await database.pool.query(ROLLUP_TOTALS)).rows).not.toEqual(
      (await database.pool.query(EXPECTED_TOTALS)).rows,
    );
    await rebuildRequestStatsRollup(database.pool);
    await expectRollupsEqualRows("rebuilt");
  });
});
