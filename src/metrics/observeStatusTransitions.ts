import { Counter, Histogram } from "prom-client";
import type { StatusTransition } from "../../schema/statusTransitions.js";
import type { Metrics } from "./createMetrics.js";

/** From a deposit's block to the request's move: seconds on a fast EVM chain, an hour of Bitcoin confirmations. */
const DEPOSIT_LATENCY_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600, 7200];
const FILL_PHASE = new Set(["pending", "submitted"]);

/**
 * Counts each status change the worker reads from the status_events outbox (every change is written there, whichever
 * job made it): transitions by from/to status and chain pair; deposit → pending and deposit → success latency by chain
 * pair; fills (a request leaving pending or submitted) by outcome and failReason; refunds by the reason the request
 * failed. Labels are statuses, chain ids and fail reasons: bounded enums.
 */
export function observeStatusTransitions(metrics: Metrics): (transitions: readonly StatusTransition[]) => void {
  const registers = [metrics.registry];
  const transitions = new Counter({
    name: "crossfill_status_transitions_total",
    help: "Request status changes by from and to status and chain pair (from is empty for a new request)",
    labelNames: ["from", "to", "origin_chain_id", "destination_chain_id"] as const,
    registers,
  });
  const latency = (name: string, to: string) =>
    new Histogram({
      name,
      help: `Seconds from the request's deposit block to its move to ${to}, by chain pair`,
      labelNames: ["origin_chain_id", "destination_chain_id"] as const,
      buckets: DEPOSIT_LATENCY_BUCKETS,
      registers,
    });
  const toPending = latency("crossfill_deposit_to_pending_seconds", "pending");
  const toSuccess = latency("crossfill_deposit_to_success_seconds", "success");
  const fills = new Counter({
    name: "crossfill_fills_total",
    help: "Fills ended: filled (success) or failed with the request's failReason",
    labelNames: ["outcome", "failReason"] as const,
    registers,
  });
  const refunds = new Counter({
    name: "crossfill_refunds_total",
    help: "Requests refunded (failure → refund) by the failReason they were refunded for",
    labelNames: ["failReason"] as const,
    registers,
  });
  return (events) => {
    for (const event of events) {
      const pair = {
        origin_chain_id: String(event.originChainId),
        destination_chain_id: String(event.destinationChainId),
      };
      transitions.inc({ from: event.from ?? "", to: event.to, ...pair });
      // A block's timestamp is whole seconds and chains' clocks drift a little: never a negative latency.
      const sinceDeposit =
        event.depositedAt === null ? undefined : Math.max(0, event.createdAt.getTime() / 1000 - event.depositedAt);
      if (sinceDeposit !== undefined && event.to === "pending") toPending.observe(pair, sinceDeposit);
      if (sinceDeposit !== undefined && event.to === "success") toSuccess.observe(pair, sinceDeposit);
      if (event.from !== null && FILL_PHASE.has(event.from)) {
        if (event.to === "success") fills.inc({ outcome: "filled", failReason: "" });
        if (event.to === "failure") fills.inc({ outcome: "failed", failReason: event.failReason ?? "UNKNOWN" });
      }
      if (event.to === "refund") refunds.inc({ failReason: event.failReason ?? "UNKNOWN" });
    }
  };
}
