import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { countRequests, requestCountSql, requestTotalSql } from "./countRequests.js";
import { foldRequestCountChanges } from "./foldRequestCountChanges.js";
import { rebuildRequestCounts } from "./rebuildRequestCounts.js";
import { type FieldCondition, type RequestFilter, emptyFilter } from "./requestFilter.js";
import { insertChildRequest } from "./requests.js";

/** mulberry32: a seeded generator, so a failure replays. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  return { next, pick };
}

const DAY = 86_400;
const BASE = Date.UTC(2026, 2, 15) / 1000; // a UTC midnight; SPAN days on, April is a whole month inside
const SPAN = 75;
const CHAINS = [1, 10, 8453];
const STATUSES = ["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"];
const FAIL_REASONS = [null, "SLIPPAGE", "ORDER_EXPIRED"];
const KEYS = [
  { id: "key_a1", integrator: "integrator-a" },
  { id: "key_a2", integrator: "integrator-a" },
  { id: "key_b1", integrator: "integrator-b" },
];

describe("countRequests", () => {
  const database = useMigratedDatabase();
  const slow = async (filter: RequestFilter) =>
    Number((await database.pool.query<{ total: string }>(requestCountSql(filter))).rows[0]!.total);

  it("answers covered filters from the per-day counts with the same number as COUNT(*), through inserts, status changes, deletes, folds and a rebuild", async () => {
    const { next, pick } = random(1303);
    for (const key of KEYS)
      await database.pool.query(
        `INSERT INTO crossfill.api_keys (id, name, integrator, elevated, key_hash, webhook_secret_cipher)
         VALUES ($1, $1, $2, false, sha256(convert_to($1, 'UTF8')), '\\x00'::bytea)`,
        [key.id, key.integrator],
      );
    // Creation times over SPAN days, some exactly on a midnight or a second either side.
    const createdAt = () => {
      const day = BASE + Math.floor(next() * SPAN) * DAY;
      return day + pick([0, 1, DAY - 1, Math.floor(next() * DAY)]);
    };
    const ids: string[] = [];
    const parents: string[] = [];
    const insert = async () => {
      const request = await insertTestRequest(database.pool, {
        originChainId: pick(CHAINS),
        destinationChainId: pick(CHAINS),
        apiKeyId: pick([null, ...KEYS.map((key) => key.id)]),
      });
      const at = createdAt();
      await database.pool.query("UPDATE crossfill.requests SET created_at = to_timestamp($2) WHERE id = $1", [
        request.id,
        at,
      ]);
      ids.push(request.id);
      if (next() < 0.15) {
        const childId = `0x${randomBytes(32).toString("hex")}`;
        await insertChildRequest(database.pool, {
          id: childId,
          parentId: request.id,
          depositor: "0xabc",
          amountIn: 5n,
        });
        parents.push(request.id);
        ids.push(childId);
      }
    };
    const transition = async () => {
      const status = pick(STATUSES);
      const failReason = status === "failure" || status === "refund" ? pick(FAIL_REASONS) : null;
      await database.pool.query("UPDATE crossfill.requests SET status = $2, fail_reason = $3 WHERE id = $1", [
        pick(ids),
        status,
        failReason,
      ]);
    };
    const remove = async () => {
      const id = pick(ids);
      if (parents.includes(id)) return;
      await database.pool.query("DELETE FROM crossfill.status_events WHERE request_id = $1", [id]);
      await database.pool.query("DELETE FROM crossfill.requests WHERE id = $1", [id]);
      ids.splice(ids.indexOf(id), 1);
    };

    const condition = (fields: FieldCondition["field"][]): FieldCondition => {
      const field = pick(fields);
      const negate = next() < 0.25;
      const many = <T>(values: readonly T[]) => [pick(values), ...(next() < 0.4 ? [pick(values)] : [])];
      switch (field) {
        case "status":
          return { field, negate, values: many(STATUSES) };
        case "failReason":
          return { field, negate, values: next() < 0.3 ? null : many(FAIL_REASONS.slice(1) as string[]) };
        case "apiKey":
          return { field, negate, values: next() < 0.2 ? null : many(KEYS.map((key) => key.id)) };
        default:
          return { field, negate, values: many(CHAINS) };
      }
    };
    const byChain = [
      "status",
      "failReason",
      "originChainId",
      "destinationChainId",
      "chainId",
      "currencyInChainId",
      "currencyOutChainId",
    ] as const;
    const byKey = ["status", "apiKey"] as const;
    const edges = () =>
      pick([
        BASE + Math.floor(next() * (SPAN + 2) - 1) * DAY,
        Date.UTC(2026, 3, 1) / 1000,
        Date.UTC(2026, 4, 1) / 1000,
      ]) + pick([0, -1, 1, Math.floor(next() * DAY)]);
    const randomFilter = (): RequestFilter => {
      const fields = [...pick<readonly FieldCondition["field"][]>([byChain, byKey])];
      const filter = emptyFilter();
      const conditions = Math.floor(next() * 3);
      for (let i = 0; i < conditions; i++) filter.conditions.push(condition(fields));
      if (next() < 0.3)
        filter.groups = [0, 1].map(() => [condition(fields), ...(next() < 0.5 ? [condition(fields)] : [])]);
      if (fields.includes("apiKey") && next() < 0.3) filter.integrator = pick(["integrator-a", "integrator-b"]);
      filter.includeChildRequests = next() < 0.3;
      if (next() < 0.6) filter.createdAt.min = edges();
      if (next() < 0.6) filter.createdAt.max = edges();
      // Now and then a field no projection keeps: the total falls back to COUNT(*).
      if (next() < 0.1) filter.conditions.push({ field: "requestType", negate: false, values: ["Bridge"] });
      if (next() < 0.05) filter.amountUsd.min = "0";
      return filter;
    };

    let fast = 0;
    const compare = async (rounds: number) => {
      for (let i = 0; i < rounds; i++) {
        const filter = randomFilter();
        const expected = await slow(filter);
        if (requestTotalSql(filter).text.includes("request_counts_by_")) fast++;
        expect({ filter, total: await countRequests(database.pool, filter) }).toEqual({ filter, total: expected });
      }
    };

    for (let i = 0; i < 120; i++) await insert();
    await compare(60);
    for (let step = 0; step < 6; step++) {
      for (let i = 0; i < 40; i++) {
        const roll = next();
        if (roll < 0.25) await insert();
        else if (roll < 0.9) await transition();
        else await remove();
      }
      // Some counts folded, the rest still pending changes: both add up.
      if (step % 2 === 0) expect(await foldRequestCountChanges(database.pool)).toBeGreaterThan(0);
      await compare(40);
    }
    await rebuildRequestCounts(database.pool);
    await compare(40);
    expect(fast).toBeGreaterThan(200);
  });

  it("folds into the projections once at a time and leaves no empty bucket", async () => {
    const client = await database.pool.connect();
    try {
      await client.query("BEGIN");
      expect(await foldRequestCountChanges(client)).not.toBeNull();
      expect(await foldRequestCountChanges(database.pool)).toBeNull();
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    const { rows } = await database.pool.query(
      `SELECT (SELECT count(*) FROM crossfill.request_counts_by_chain WHERE n <= 0)
            + (SELECT count(*) FROM crossfill.request_counts_by_key WHERE n <= 0)
            + (SELECT count(*) FROM crossfill.request_counts_by_chain_monthly WHERE n <= 0)
            + (SELECT count(*) FROM crossfill.request_counts_by_key_monthly WHERE n <= 0) AS empty`,
    );
    expect(Number(rows[0].empty)).toBe(0);
  });
});
