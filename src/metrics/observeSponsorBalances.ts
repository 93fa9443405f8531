import { Gauge } from "prom-client";
import type { Metrics } from "./createMetrics.js";

/**
 * Each integrator's fee sponsorship balance in USD (crossfill sponsors), read at each scrape. Integrators are the
 * operator's own list, so the label stays bounded.
 */
export function observeSponsorBalances(
  metrics: Metrics,
  listBalances: () => Promise<Array<{ integrator: string; balance: bigint }>>,
): void {
  new Gauge({
    name: "crossfill_sponsor_balance_usd",
    help: "Fee sponsorship balance left, in USD, by integrator",
    labelNames: ["integrator"] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const { integrator, balance } of await listBalances().catch(() => []))
        this.set({ integrator }, Number(balance) / 1e6);
    },
  });
}
