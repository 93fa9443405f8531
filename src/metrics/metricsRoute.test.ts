import { describe, expect, it } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { metricsRoute } from "./metricsRoute.js";

describe("metricsRoute", () => {
  it("serves the registry in Prometheus' text format, the role's process metrics included", async () => {
    const metrics = createMetrics("worker", { processMetrics: true });
    const response = await metricsRoute(metrics.registry).request("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain("# TYPE crossfill_quotes_total counter");
    expect(text).toMatch(/crossfill_process_cpu_seconds_total\{role="worker"\} /);
  });
});
