import { describe, expect, it } from "vitest";
import type { MinedReceipt } from "../src/chains/adapter.js";
import { followSentWithdrawal } from "./followSentWithdrawal.js";

const sent = { rawTx: "0xraw", txHash: "0xhash" };

function chainShowing(receipt: MinedReceipt | null | Error) {
  const broadcasts: string[] = [];
  return {
    broadcasts,
    chain: {
      readReceipt: async () => {
        if (receipt instanceof Error) throw receipt;
        return receipt;
      },
      broadcast: async (tx: { rawTx: string }) => void broadcasts.push(tx.rawTx),
    },
  };
}

describe("followSentWithdrawal", () => {
  it("re-sends a withdrawal the node has no receipt of, and only that one", async () => {
    const lost = chainShowing(null);
    expect(await followSentWithdrawal(lost.chain, sent)).toEqual({ state: "sent", txHash: "0xhash" });
    expect(lost.broadcasts).toEqual(["0xraw"]);
    const mined = chainShowing({ succeeded: true, blockNumber: 7n });
    expect(await followSentWithdrawal(mined.chain, sent)).toEqual({ state: "mined" });
    const reverted = chainShowing({ succeeded: false, blockNumber: 8n });
    expect(await followSentWithdrawal(reverted.chain, sent)).toEqual({ state: "reverted", blockNumber: 8n });
    expect([...mined.broadcasts, ...reverted.broadcasts]).toEqual([]);
  });

  it("throws a node failure instead of taking it for a lost withdrawal; a chain without receipts is re-sent", async () => {
    const failing = chainShowing(new Error("upstream timed out"));
    await expect(followSentWithdrawal(failing.chain, sent)).rejects.toThrow("upstream timed out");
    expect(failing.broadcasts).toEqual([]);
    const broadcasts: string[] = [];
    const bitcoin = { broadcast: async (tx: { rawTx: string }) => void broadcasts.push(tx.rawTx) };
    expect(await followSentWithdrawal(bitcoin, sent)).toEqual({ state: "sent", txHash: "0xhash" });
    expect(broadcasts).toEqual(["0xraw"]);
  });

  it("stores a mined withdrawal under the chain's own hash when its receipt names another, and nothing else", async () => {
    const replaced: Array<{ rawTx: string; txHash: string }> = [];
    const replace = async (next: { rawTx: string; txHash: string }) => replaced.push(next) > 0;
    const named = chainShowing({ succeeded: true, blockNumber: 7n, txHash: "0xledger" });
    expect(await followSentWithdrawal(named.chain, sent, replace)).toEqual({ state: "mined" });
    expect(replaced).toEqual([{ rawTx: "0xraw", txHash: "0xledger" }]);
    // The same name, or none, replaces nothing.
    await followSentWithdrawal(
      chainShowing({ succeeded: true, blockNumber: 7n, txHash: "0xhash" }).chain,
      sent,
      replace,
    );
    await followSentWithdrawal(chainShowing({ succeeded: true, blockNumber: 7n }).chain, sent, replace);
    expect(replaced).toHaveLength(1);
    expect(named.broadcasts).toEqual([]);
  });
});
