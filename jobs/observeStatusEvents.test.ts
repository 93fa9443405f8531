import pg from "pg";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createMetrics } from "../src/metrics/createMetrics.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { observeStatusEvents } from "./observeStatusEvents.js";

describe("observeStatusEvents", () => {
  const db = useMigratedDatabase();

  it("counts each status change from the pass's one read of the outbox", async () => {
    // A pool of its own whose statements are kept: what the metrics' passes ask Postgres.
    const pool = new pg.Pool({ connectionString: db.pool.options.connectionString, max: 2 });
    const statements: string[] = [];
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        if (typeof args[0] === "string") statements.push(args[0]);
        return query(...args);
      };
    });
    const metrics = createMetrics("worker");
    const running = await observeStatusEvents({ pool, logger: pino({ level: "silent" }) }, metrics);
    try {
      const request = await insertTestRequest(db.pool, { originChainId: 31338, destinationChainId: 31339 });
      await withTransaction(db.pool, (client) => transitionRequest(client, { requestId: request.id, to: "pending" }));
      const pair = { origin_chain_id: "31338", destination_chain_id: "31339" };
      const counted = async () => {
        const { values } = await metrics.registry.getSingleMetric("crossfill_status_transitions_total")!.get();
        return values.filter((value) => Object.entries(pair).every(([key, id]) => value.labels[key] === id));
      };
      for (let tries = 0; (await counted()).length < 2 && tries < 200; tries++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect((await counted()).map((value) => [value.labels.from, value.labels.to, value.value])).toEqual([
        ["", "waiting", 1],
        ["waiting", "pending", 1],
      ]);
    } finally {
      await running.close();
      await pool.end();
    }
    // Each pass locks the cursor and reads the outbox's rows once (the head probe aside); none reads them again.
    const passes = statements.filter((sql) => /notify_cursors[\s\S]*FOR UPDATE/.test(sql)).length;
    const rowReads = statements.filter((sql) => /crossfill\.status_events e\b/.test(sql)).length;
    expect(passes).toBeGreaterThan(0);
    expect(rowReads).toBe(passes);
  });
});
