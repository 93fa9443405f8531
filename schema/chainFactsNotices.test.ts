import { describe, expect, it, vi } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { insertDepositFacts } from "./chainFacts.js";
import { CHAIN_FACTS_CHANNEL, listenForChainFacts, ponderLiveQueryChannel } from "./chainFactsNotices.js";
import { withTransaction } from "./withTransaction.js";

const deposit = {
  chainId: 31338,
  txHash: `0x${"11".repeat(32)}`,
  position: 0,
  orderId: `0x${"22".repeat(32)}`,
  depositor: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  currency: "0x0000000000000000000000000000000000000000",
  amount: 1000n,
  blockNumber: 7n,
  blockHash: `0x${"33".repeat(32)}`,
  timestamp: 1n,
  txFrom: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  txFee: null,
};

const NOTIFY_CHAIN_FACTS_SQL = `SELECT pg_notify('${CHAIN_FACTS_CHANNEL}', 'test')`;

describe("listenForChainFacts", () => {
  const db = useMigratedDatabase({ max: 4 });

  it("hears facts as their transaction commits (the app's fact tables, by trigger), never a rollback", async () => {
    let notices = 0;
    const heard = () =>
      new Promise<void>((resolve, reject) => {
        const from = notices;
        const deadline = Date.now() + 5_000;
        const look = () => {
          if (notices > from) return resolve();
          if (Date.now() > deadline) return reject(new Error("no notice within 5 s"));
          setTimeout(look, 5);
        };
        look();
      });
    const listener = listenForChainFacts(db.pool, () => (notices += 1));
    // it looks once on connecting, for facts committed while nobody listened
    await heard();

    let insideTransaction = -1;
    const committed = heard();
    await withTransaction(db.pool, async (client) => {
      await insertDepositFacts(client, [deposit], "manual");
      await new Promise((resolve) => setTimeout(resolve, 100));
      insideTransaction = notices;
    });
    await committed;
    expect(insideTransaction).toBe(notices - 1);

    const before = notices;
    await withTransaction(db.pool, async (client) => {
      await client.query(NOTIFY_CHAIN_FACTS_SQL);
      throw new Error("rolled back");
    }).catch(() => undefined);
    const sent = heard();
    await db.pool.query(NOTIFY_CHAIN_FACTS_SQL);
    await sent;
    expect(notices).toBe(before + 1);
    await listener.close();
  });

  it("hears the blocks Ponder indexes that change a table, on its live-query channel of the views schema", async () => {
    const heard: string[] = [];
    const listener = listenForChainFacts(db.pool, () => heard.push("facts"), { ponderViewsSchema: "Onchain_Views" });
    await vi.waitFor(() => expect(heard).toEqual(["facts"]));
    const channel = ponderLiveQueryChannel("Onchain_Views");
    // what Ponder sends when a realtime block commits: the tables it changed, `[]` for an empty block
    await db.pool.query("SELECT pg_notify($1, '[]')", [channel]);
    await db.pool.query("SELECT pg_notify($1, $2)", [channel, '["deposit"]']);
    await vi.waitFor(() => expect(heard).toEqual(["facts", "facts"]));
    await db.pool.query("SELECT pg_notify($1, '[]')", ["other_views_live_query"]);
    await db.pool.query(NOTIFY_CHAIN_FACTS_SQL);
    await vi.waitFor(() => expect(heard).toEqual(["facts", "facts", "facts"]));
    await listener.close();
  });
});
