import { describe, expect, it } from "vitest";
import type { StatusTransition } from "../../schema/statusTransitions.js";
import { type Metrics, createMetrics } from "./createMetrics.js";
import { observeStatusTransitions } from "./observeStatusTransitions.js";

const at = (seconds: number) => new Date(seconds * 1000);
const move = (from: StatusTransition["from"], to: StatusTransition["to"], extra: Partial<StatusTransition> = {}) => ({
  id: 1n,
  from,
  to,
  failReason: null,
  originChainId: 31338,
  destinationChainId: 31339,
  depositedAt: 1_000,
  createdAt: at(1_003),
  ...extra,
});

/** One sample's value: `name` a series (a histogram's _sum or _bucket too), `labels` all of its labels but the role. */
async function sample(metrics: Metrics, name: string, labels: Record<string, string | number>) {
  const base = name.replace(/_(sum|count|bucket)$/, "");
  const { values } = await metrics.registry.getSingleMetric(base)!.get();
  const found = values.filter(
    (value) =>
      ((value as { metricName?: string }).metricName ?? base) === name &&
      Object.keys(value.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, wanted]) => String(value.labels[key]) === String(wanted)),
  );
  return found.length === 1 ? found[0]!.value : undefined;
}

describe("observeStatusTransitions", () => {
  it("counts moves by status and chain pair, deposit latencies, fills by outcome and refunds by reason", async () => {
    const metrics = createMetrics("worker");
    const observe = observeStatusTransitions(metrics);
    observe([
      move(null, "waiting", { depositedAt: null }),
      move("waiting", "pending"),
      move("pending", "success", { createdAt: at(1_012) }),
      move("pending", "failure", { failReason: "SOLVER_BALANCE_TOO_LOW" }),
      move("failure", "refund", { failReason: "SOLVER_BALANCE_TOO_LOW" }),
      // a failure before any fill (the deposit never came) is no fill
      move("waiting", "failure", { failReason: "ORDER_EXPIRED", depositedAt: null }),
    ]);
    const pair = { origin_chain_id: 31338, destination_chain_id: 31339 };
    const transitions = (from: string, to: string) =>
      sample(metrics, "crossfill_status_transitions_total", { from, to, ...pair });
    expect(await transitions("", "waiting")).toBe(1);
    expect(await transitions("waiting", "pending")).toBe(1);
    expect(await transitions("failure", "refund")).toBe(1);
    expect(await sample(metrics, "crossfill_deposit_to_pending_seconds_sum", pair)).toBe(3);
    expect(await sample(metrics, "crossfill_deposit_to_pending_seconds_bucket", { le: 5, ...pair })).toBe(1);
    expect(await sample(metrics, "crossfill_deposit_to_pending_seconds_bucket", { le: 2, ...pair })).toBe(0);
    expect(await sample(metrics, "crossfill_deposit_to_success_seconds_sum", pair)).toBe(12);
    expect(await sample(metrics, "crossfill_fills_total", { outcome: "filled", failReason: "" })).toBe(1);
    expect(
      await sample(metrics, "crossfill_fills_total", { outcome: "failed", failReason: "SOLVER_BALANCE_TOO_LOW" }),
    ).toBe(1);
    expect(await sample(metrics, "crossfill_fills_total", { outcome: "failed", failReason: "ORDER_EXPIRED" })).toBe(
      undefined,
    );
    expect(await sample(metrics, "crossfill_refunds_total", { failReason: "SOLVER_BALANCE_TOO_LOW" })).toBe(1);
  });

  it("never observes a negative latency when the deposit's block time is ahead of the database clock", async () => {
    const metrics = createMetrics("worker");
    observeStatusTransitions(metrics)([move("waiting", "pending", { depositedAt: 1_005 })]);
    const pair = { origin_chain_id: 31338, destination_chain_id: 31339 };
    expect(await sample(metrics, "crossfill_deposit_to_pending_seconds_sum", pair)).toBe(0);
  });
});
