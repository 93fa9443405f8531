import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import type { EvmChainConfig } from "../src/chains/chainConfig.js";
import { TEST_BITCOIN_CHAIN } from "../test/support/testBitcoinChain.js";
import { testEvmChain } from "../test/support/testEvmChain.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { HEAD_WATCHER_SOURCE } from "../schema/chainFacts.js";
import { startDepositWatchers } from "./startDepositWatchers.js";

describe("startDepositWatchers", () => {
  const db = useMigratedDatabase();

  it("watches the EVM chains with a wsUrl, says which are left to Ponder, logs their health and stops them", async () => {
    const lines: Array<{ msg: string; chainIds?: number[]; watchers?: Array<{ chainId: number }> }> = [];
    const watchers = startDepositWatchers({
      pool: db.pool,
      logger: pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      chains: [
        // Nothing listens there: the watcher keeps trying, and says so in its health.
        { ...(testEvmChain(920_001) as EvmChainConfig), wsUrl: "ws://127.0.0.1:1" },
        testEvmChain(920_002),
        TEST_BITCOIN_CHAIN,
      ],
      healthLogEveryMs: 5,
    });
    try {
      await vi.waitFor(() => expect(watchers.health()[0]?.lastError).toBeTruthy());
      await vi.waitFor(() => expect(lines.some((line) => line.msg === "deposit watcher health")).toBe(true));
    } finally {
      await watchers.stop();
    }
    expect(watchers.health()).toMatchObject([{ chainId: 920_001, connected: false, head: null }]);
    expect(lines.find((line) => line.chainIds)).toMatchObject({ chainIds: [920_002] });
    expect(lines.find((line) => line.watchers)?.watchers?.map((watcher) => watcher.chainId)).toEqual([920_001]);
  });

  it("deletes the watchers' deposit facts once they are older than kept, and nothing else", async () => {
    const fact = (txHash: string, source: string, ageMs: number) =>
      db.pool.query(
        `INSERT INTO crossfill.deposit_facts (chain_id, tx_hash, log_index, order_id, depositor, currency, amount, block_number,
           block_hash, timestamp, tx_from, tx_fee, source, created_at)
         VALUES (920003, $1, 0, '0x01', '0x02', '0x03', 1, 1, '0x04', 1, '0x05', NULL, $2, now() - make_interval(secs => $3 / 1000.0))`,
        [txHash, source, ageMs],
      );
    await fact("0xold-watcher", HEAD_WATCHER_SOURCE, 120_000);
    await fact("0xnew-watcher", HEAD_WATCHER_SOURCE, 0);
    await fact("0xold-poller", "poller", 120_000);
    const lines: Array<{ msg: string; deleted?: number }> = [];
    const watchers = startDepositWatchers({
      pool: db.pool,
      logger: pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      chains: [],
      keepFactsMs: 60_000,
      pruneEveryMs: 10,
    });
    try {
      await vi.waitFor(() => expect(lines.find((line) => line.msg === "deposit watcher facts pruned")).toBeTruthy());
    } finally {
      await watchers.stop();
    }
    const { rows } = await db.pool.query(
      "SELECT tx_hash FROM crossfill.deposit_facts WHERE chain_id = 920003 ORDER BY tx_hash",
    );
    expect(rows.map((row) => row.tx_hash)).toEqual(["0xnew-watcher", "0xold-poller"]);
    expect(lines.find((line) => line.msg === "deposit watcher facts pruned")).toMatchObject({ deleted: 1 });
  });
});
