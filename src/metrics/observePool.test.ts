import type pg from "pg";
import { describe, expect, it } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observePool } from "./observePool.js";

describe("observePool", () => {
  it("reads the pool's counts at scrape time", async () => {
    const metrics = createMetrics("api");
    const pool = { totalCount: 4, idleCount: 1, waitingCount: 0 };
    observePool(metrics, pool as pg.Pool);
    pool.waitingCount = 7;
    const text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_pg_pool_connections{role="api"} 4');
    expect(text).toContain('crossfill_pg_pool_idle_connections{role="api"} 1');
    expect(text).toContain('crossfill_pg_pool_waiting_clients{role="api"} 7');
  });
});
