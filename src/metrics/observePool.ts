import type pg from "pg";
import { Gauge } from "prom-client";
import type { Metrics } from "./createMetrics.js";

/** The role's Postgres pool as Prometheus reads it at each scrape: connections open, idle, and callers waiting. */
export function observePool(metrics: Metrics, pool: pg.Pool): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      collect() {
        this.set(read());
      },
    });
  gauge("crossfill_pg_pool_connections", "Postgres connections the pool holds", () => pool.totalCount);
  gauge("crossfill_pg_pool_idle_connections", "Postgres connections idle in the pool", () => pool.idleCount);
  gauge("crossfill_pg_pool_waiting_clients", "Queries waiting for a Postgres connection", () => pool.waitingCount);
}
