import { describe, expect, it } from "vitest";
import { spendableBalance } from "./spendableBalance.js";

describe("spendableBalance", () => {
  it("is confirmed funded − confirmed spent − mempool spent, ignoring mempool payments in", () => {
    const stats = {
      chain_stats: { funded_txo_sum: 1_000_000, spent_txo_sum: 300_000 },
      mempool_stats: { funded_txo_sum: 50_000, spent_txo_sum: 200_000 },
    };
    expect(spendableBalance(stats)).toBe(500_000n);
  });
});
