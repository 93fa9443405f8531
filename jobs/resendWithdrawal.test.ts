import { describe, expect, it } from "vitest";
import { resendWithdrawal } from "./resendWithdrawal.js";

const sent = { rawTx: "raw-1", txHash: "hash-1" };
const next = { rawTx: "raw-2", txHash: "hash-2" };

/** A chain whose sent transaction has (`next`) or has not (undefined) expired unlanded; what it was sent. */
function expiringChain(renewed: typeof next | undefined) {
  const broadcasts: string[] = [];
  const asked: string[] = [];
  return {
    broadcasts,
    asked,
    chain: {
      broadcast: async (tx: { rawTx: string }) => void broadcasts.push(tx.rawTx),
      resignExpired: async (tx: { txHash: string }) => {
        asked.push(tx.txHash);
        return renewed;
      },
    },
  };
}

describe("resendWithdrawal", () => {
  it("re-sends a withdrawal that may still land, never re-signing it", async () => {
    const valid = expiringChain(undefined);
    const stored: string[] = [];
    const replace = async (tx: { txHash: string }) => (stored.push(tx.txHash), true);
    expect(await resendWithdrawal(valid.chain, sent, replace)).toEqual({ state: "sent", txHash: "hash-1" });
    expect(valid.broadcasts).toEqual(["raw-1"]);
    expect(stored).toEqual([]);
  });

  it("stores an expired withdrawal's replacement before sending it, and sends only the replacement", async () => {
    const expired = expiringChain(next);
    const order: string[] = [];
    const replace = async (tx: { txHash: string }) => {
      order.push(`stored ${tx.txHash}`, `sent before: ${expired.broadcasts.length}`);
      return true;
    };
    expect(await resendWithdrawal(expired.chain, sent, replace)).toEqual({ state: "resigned", txHash: "hash-2" });
    expect(order).toEqual(["stored hash-2", "sent before: 0"]);
    expect(expired.broadcasts).toEqual(["raw-2"]);
  });

  it("sends nothing new when another run replaced it first; re-sends only where nothing can be stored", async () => {
    const raced = expiringChain(next);
    expect(await resendWithdrawal(raced.chain, sent, async () => false)).toEqual({ state: "sent", txHash: "hash-1" });
    expect(raced.broadcasts).toEqual([]);
    // Without a store there is no replacing: the chain is not even asked.
    const unstored = expiringChain(next);
    expect(await resendWithdrawal(unstored.chain, sent)).toEqual({ state: "sent", txHash: "hash-1" });
    expect([unstored.asked, unstored.broadcasts]).toEqual([[], ["raw-1"]]);
    const bitcoin = { broadcast: async () => undefined };
    expect(await resendWithdrawal(bitcoin, sent, async () => true)).toEqual({ state: "sent", txHash: "hash-1" });
  });
});
