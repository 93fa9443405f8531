import { Gauge } from "prom-client";
import type { Metrics } from "./createMetrics.js";

/**
 * The operator's low-balance thresholds (SOLVER_LOW_BALANCES, "<chain id>:<symbol>" → whole units) as a gauge beside
 * crossfill_solver_balance, so one alert rule compares each currency with its own threshold.
 */
export function observeSolverLowBalances(metrics: Metrics, thresholds: Readonly<Record<string, string>>): void {
  const gauge = new Gauge({
    name: "crossfill_solver_low_balance_threshold",
    help: "The solver balance (whole units) under which CrossfillSolverBalanceLow fires, by chain and currency",
    labelNames: ["chain_id", "currency"] as const,
    registers: [metrics.registry],
  });
  for (const [key, amount] of Object.entries(thresholds)) {
    const [chainId, currency] = key.split(":") as [string, string];
    gauge.set({ chain_id: chainId, currency }, Number(amount));
  }
}
