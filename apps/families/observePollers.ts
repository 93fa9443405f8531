import { Gauge } from "prom-client";
import type { PollerHealth } from "../../indexers/poller/startPoller.js";
import type { Metrics } from "../../src/metrics/createMetrics.js";

/** Each poller's chain as it last read it: the source's head, the position recorded, and the lag between them. */
export function observePollers(metrics: Metrics, health: () => PollerHealth[]): void {
  const gauge = (name: string, help: string, read: (poller: PollerHealth) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ["chain_id"] as const,
      registers: [metrics.registry],
      collect() {
        this.reset();
        for (const poller of health()) {
          const value = read(poller);
          if (value !== null) this.set({ chain_id: String(poller.chainId) }, value);
        }
      },
    });
  // A gauge is a float: a head past 2^53 (a TON lt) shows to its 53 bits, as any exporter of it would.
  gauge("crossfill_poller_source_head", "The chain's head at the poller's last read", (poller) =>
    poller.head === null ? null : Number(poller.head),
  );
  gauge("crossfill_poller_lag", "Positions of the chain the poller has not recorded yet", (poller) => poller.lag);
  gauge("crossfill_poller_last_success_timestamp_seconds", "When the poller last read its chain", (poller) =>
    poller.lastSuccessAt ? poller.lastSuccessAt.getTime() / 1000 : null,
  );
}
