import { Hono } from "hono";
import type { Registry } from "prom-client";

/** `GET /metrics` in Prometheus' text format. */
export function metricsRoute(registry: Registry): Hono {
  const app = new Hono();
  app.get("/metrics", async (c) => {
    c.header("content-type", registry.contentType);
    c.header("cache-control", "no-store");
    return c.body(await registry.metrics());
  });
  return app;
}
