import { readFileSync } from "node:fs";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { observePollers } from "../apps/families/observePollers.js";
import { createMetrics } from "../src/metrics/createMetrics.js";
import { observeChainHeads } from "../src/metrics/observeChainHeads.js";
import { observePool } from "../src/metrics/observePool.js";
import { observeQueues } from "../src/metrics/observeQueues.js";
import { observeOpenRefunds } from "../src/metrics/observeOpenRefunds.js";
import { observeStatusTransitions } from "../src/metrics/observeStatusTransitions.js";
import { observeWebhookPoster } from "../src/metrics/observeWebhookPoster.js";
import { observeSolverInventory } from "../src/metrics/observeSolverInventory.js";
import { observeSponsorBalances } from "../src/metrics/observeSponsorBalances.js";
import { observeSolverLowBalances } from "../src/metrics/observeSolverLowBalances.js";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

/** Every series name a role's /metrics can carry (a histogram's _bucket, _sum and _count included). */
async function exportedSeries(): Promise<Set<string>> {
  const metrics = createMetrics("test", { processMetrics: true });
  observePool(metrics, { totalCount: 0, idleCount: 0, waitingCount: 0 } as pg.Pool);
  observeQueues(metrics);
  observeChainHeads(metrics, async () => []);
  observePollers(metrics, () => []);
  observeStatusTransitions(metrics);
  observeOpenRefunds(metrics, async () => ({ queued: 0, sent: 0, manual: 0, unrefundable: 0 }));
  observeWebhookPoster(metrics, { post: async () => ({ statusCode: 204 }), close: () => undefined });
  observeSolverInventory(metrics, async () => []);
  observeSponsorBalances(metrics, async () => []);
  observeSolverLowBalances(metrics, {});
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
  }
  return names;
}

// Prometheus' own series the rules may read besides ours.
const PROMETHEUS_SERIES = new Set(["up"]);
const seriesIn = (expr: string) =>
  [...expr.matchAll(/\b(crossfill_[a-z0-9_]+|up)\b(?=\s*[{[)\s]|$)/g)].map((m) => m[1]!);

describe("ops/: the alert rules and the Grafana dashboard", () => {
  it("the alert rules parse, each has an expression, a summary and a severity, and reads only exported series", async () => {
    const exported = await exportedSeries();
    const rules = parse(read("./prometheus/crossfill.rules.yml")) as {
      groups: Array<{
        name: string;
        rules: Array<{ alert: string; expr: string; labels: { severity: string }; annotations: { summary: string } }>;
      }>;
    };
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const rule of all) {
      expect(rule.alert).toMatch(/^Crossfill[A-Za-z]+$/);
      expect(["page", "warn"]).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
      const series = seriesIn(rule.expr);
      expect(series.length, rule.alert).toBeGreaterThan(0);
      for (const name of series)
        expect([rule.alert, exported.has(name) || PROMETHEUS_SERIES.has(name)]).toEqual([rule.alert, true]);
    }
  });

  it("the dashboard is Grafana JSON whose every panel query reads exported series", async () => {
    const exported = await exportedSeries();
    const dashboard = JSON.parse(read("./grafana/crossfill-dashboard.json")) as {
      uid: string;
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    expect(dashboard.uid).toBe("crossfill-overview");
    expect(dashboard.panels.length).toBeGreaterThan(5);
    for (const panel of dashboard.panels)
      for (const { expr } of panel.targets) {
        const series = seriesIn(expr);
        expect(series.length, panel.title).toBeGreaterThan(0);
        for (const name of series) expect([panel.title, name, exported.has(name)]).toEqual([panel.title, name, true]);
      }
  });

  it("names a series the roles do not export as missing (the check can fail)", async () => {
    const exported = await exportedSeries();
    expect(seriesIn('sum(rate(crossfill_fill_outcomes_total{outcome="failed"}[5m]))')).toEqual([
      "crossfill_fill_outcomes_total",
    ]);
    expect(exported.has("crossfill_fill_outcomes_total")).toBe(false);
  });
});
