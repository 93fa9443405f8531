import { describe, expect, it } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observeQueues } from "./observeQueues.js";

describe("observeQueues", () => {
  it("counts each watched queue's jobs by state at scrape time, leaving out a queue that cannot answer", async () => {
    const metrics = createMetrics("worker");
    const queues = observeQueues(metrics);
    let waiting = 3;
    queues.watch({ name: "crossfill-fill", getJobCounts: async () => ({ waiting, active: 1, delayed: 0, failed: 2 }) });
    queues.watch({ name: "crossfill-refund", getJobCounts: () => Promise.reject(new Error("redis away")) });
    let text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_queue_jobs{queue="crossfill-fill",state="waiting",role="worker"} 3');
    expect(text).toContain('crossfill_queue_jobs{queue="crossfill-fill",state="failed",role="worker"} 2');
    expect(text).not.toContain("crossfill-refund");
    waiting = 0;
    text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_queue_jobs{queue="crossfill-fill",state="waiting",role="worker"} 0');
  });
});
