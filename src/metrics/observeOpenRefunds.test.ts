import { describe, expect, it } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observeOpenRefunds } from "./observeOpenRefunds.js";

describe("observeOpenRefunds", () => {
  it("sets each open status's count at the scrape, and leaves the series out when the count fails", async () => {
    const metrics = createMetrics("worker");
    let fail = false;
    observeOpenRefunds(metrics, async () => {
      if (fail) throw new Error("database down");
      return { queued: 2, sent: 0, manual: 1, unrefundable: 0 };
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_refunds_open{status="queued",role="worker"} 2');
    expect(text).toContain('crossfill_refunds_open{status="manual",role="worker"} 1');
    fail = true;
    expect(await metrics.registry.metrics()).not.toContain('crossfill_refunds_open{status="queued"');
  });
});
