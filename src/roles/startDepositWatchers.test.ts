import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import type { EvmChainConfig } from "../chains/chainConfig.js";
import { TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { testEvmChain } from "../../test/support/testEvmChain.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
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
});
