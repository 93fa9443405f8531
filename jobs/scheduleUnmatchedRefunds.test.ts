import pino from "pino";
import { describe, expect, it } from "vitest";
import { NO_ORDER, POLLER_SOURCE, insertDepositFacts } from "../schema/chainFacts.js";
import { recordPollerCursors } from "../schema/pollerCursors.js";
import type { DepositOutpoint } from "../schema/unmatchedRefunds.js";
import { withTransaction } from "../schema/withTransaction.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { scheduleUnmatchedRefunds } from "./scheduleUnmatchedRefunds.js";

const CHAIN = 8253038;

describe("scheduleUnmatchedRefunds", () => {
  const db = useMigratedDatabase();
  const logger = pino({ level: "silent" });

  it("queues old enough deposits once, enqueues their jobs, then re-enqueues open ones after the recheck", async () => {
    await withTransaction(db.pool, (client) => recordPollerCursors(client, CHAIN, [{ position: 7, key: "b7" }], 100));
    await insertDepositFacts(
      db.pool,
      [
        {
          chainId: CHAIN,
          txHash: "memo-less",
          position: 1,
          orderId: NO_ORDER,
          depositor: "bcrt1qpayer",
          currency: "btc",
          amount: 5_000n,
          blockNumber: 6n,
          blockHash: "b6",
          timestamp: 1n,
          txFrom: "bcrt1qpayer",
          txFee: 100n,
        },
      ],
      POLLER_SOURCE,
    );
    const enqueued: DepositOutpoint[] = [];
    const options = { pool: db.pool, logger, enqueue: async (job: DepositOutpoint) => void enqueued.push(job) };
    expect(await scheduleUnmatchedRefunds({ ...options, rules: [] })()).toBe(0);
    expect(await scheduleUnmatchedRefunds({ ...options, rules: [{ chainId: CHAIN, afterBlocks: 3 }] })()).toBe(0);
    expect(enqueued).toEqual([]);

    const pass = scheduleUnmatchedRefunds({
      ...options,
      rules: [{ chainId: CHAIN, afterBlocks: 2 }],
      everyMs: 0,
      recheckAfterMs: 200,
    });
    const job = { chainId: CHAIN, txHash: "memo-less", position: 1 };
    expect(await pass()).toBe(1);
    expect(enqueued).toEqual([job]);
    expect(await pass()).toBe(0);
    expect(enqueued).toEqual([job]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pass();
    expect(enqueued).toEqual([job, job]);

    // Called on every reconcile tick, it runs at most once per `everyMs`.
    const throttled = scheduleUnmatchedRefunds({
      ...options,
      rules: [{ chainId: CHAIN, afterBlocks: 2 }],
      recheckAfterMs: 0,
    });
    await throttled();
    await throttled();
    expect(enqueued).toHaveLength(3);
  });
});
