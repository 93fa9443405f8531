import { Gauge } from "prom-client";
import type { OpenRefundStatus } from "../../schema/openRefundCounts.js";
import type { Metrics } from "./createMetrics.js";

/**
 * Refunds not yet done, by status, read at each scrape: `queued`/`sent` piling up means the refund jobs are stuck,
 * `manual`/`unrefundable` wait for an operator (crossfill refunds). A read that fails leaves the scrape without them.
 */
export function observeOpenRefunds(metrics: Metrics, count: () => Promise<Record<OpenRefundStatus, number>>): void {
  new Gauge({
    name: "crossfill_refunds_open",
    help: "Refunds not yet done by status (queued, sent, manual, unrefundable)",
    labelNames: ["status"] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      const counts = await count().catch(() => undefined);
      for (const [status, n] of Object.entries(counts ?? {})) this.set({ status }, n);
    },
  });
}
