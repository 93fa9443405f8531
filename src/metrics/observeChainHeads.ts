import { Gauge } from "prom-client";
import type { ChainHead } from "../../schema/chainHeads.js";
import type { Metrics } from "./createMetrics.js";

/**
 * Each chain's head as its indexer recorded it (the block, and how long since it last moved: a stalled chain or a
 * stalled indexer shows as a growing age), read once per scrape.
 */
export function observeChainHeads(metrics: Metrics, listHeads: () => Promise<ChainHead[]>, now = Date.now): void {
  let read: Promise<ChainHead[]> | undefined;
  // Both gauges of one scrape share one read.
  const heads = () => (read ??= listHeads().finally(() => setTimeout(() => (read = undefined), 0)));
  new Gauge({
    name: "crossfill_chain_indexed_head",
    help: "The newest block an indexer recorded, by chain",
    labelNames: ["chain_id"] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const head of await heads().catch(() => []))
        this.set({ chain_id: String(head.chainId) }, Number(head.blockNumber));
    },
  });
  new Gauge({
    name: "crossfill_chain_head_age_seconds",
    help: "Seconds since the indexed head last moved, by chain",
    labelNames: ["chain_id"] as const,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const head of await heads().catch(() => []))
        this.set({ chain_id: String(head.chainId) }, (now() - head.movedAt.getTime()) / 1000);
    },
  });
}
