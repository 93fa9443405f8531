import { describe, expect, it, vi } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observeChainHeads } from "./observeChainHeads.js";

describe("observeChainHeads", () => {
  it("reads the heads once per scrape: each chain's block and the seconds since it moved", async () => {
    const metrics = createMetrics("worker");
    const listHeads = vi.fn(async () => [
      { chainId: 8253038, blockNumber: 120n, movedAt: new Date(40_000), observedAt: new Date(99_000) },
    ]);
    observeChainHeads(metrics, listHeads, () => 100_000);
    const text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_chain_indexed_head{chain_id="8253038",role="worker"} 120');
    expect(text).toContain('crossfill_chain_head_age_seconds{chain_id="8253038",role="worker"} 60');
    expect(listHeads).toHaveBeenCalledTimes(1);
  });
});
