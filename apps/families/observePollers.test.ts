import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics/createMetrics.js";
import { observePollers } from "./observePollers.js";

describe("observePollers", () => {
  it("exports each poller's head, lag and last read, leaving out what it does not know yet", async () => {
    const metrics = createMetrics("indexer");
    observePollers(metrics, () => [
      { chainId: 8253038, head: 120, cursor: 118, lag: 2, lastSuccessAt: new Date(5_000), lastError: null },
      { chainId: 7, head: null, cursor: null, lag: null, lastSuccessAt: null, lastError: null },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_poller_source_head{chain_id="8253038",role="indexer"} 120');
    expect(text).toContain('crossfill_poller_lag{chain_id="8253038",role="indexer"} 2');
    expect(text).toContain('crossfill_poller_last_success_timestamp_seconds{chain_id="8253038",role="indexer"} 5');
    expect(text).not.toContain('chain_id="7"');
  });
});
