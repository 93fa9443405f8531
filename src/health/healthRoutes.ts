import { Hono } from "hono";
import type { Readiness } from "./readinessProbe.js";

/**
 * `GET /healthz`: the process is alive and serving (no dependency asked). `GET /readyz`: every dependency answers,
 * with each one's state; 503 when one does not, so a load balancer takes the role out of rotation.
 */
export function healthRoutes(probe: () => Promise<Readiness>): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => {
    c.header("cache-control", "no-store");
    return c.json({ status: "ok" });
  });
  app.get("/readyz", async (c) => {
    const readiness = await probe();
    c.header("cache-control", "no-store");
    return c.json({ status: readiness.ready ? "ready" : "not ready", ...readiness }, readiness.ready ? 200 : 503);
  });
  return app;
}
