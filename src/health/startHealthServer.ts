import { type ServerType, serve } from "@hono/node-server";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { metricsRoute } from "../metrics/metricsRoute.js";
import { healthRoutes } from "./healthRoutes.js";
import type { Readiness } from "./readinessProbe.js";

export type HealthServer = { url: string; port: number; close(): Promise<void> };

/**
 * The health endpoints and `/metrics` of a role without a public port of its own (the worker, a poller indexer), on
 * a small port bound to loopback unless the operator says otherwise.
 */
export async function startHealthServer(options: {
  host: string;
  port: number;
  probe: () => Promise<Readiness>;
  metrics: Registry;
  logger: Logger;
}): Promise<HealthServer> {
  const app = healthRoutes(options.probe);
  app.route("/", metricsRoute(options.metrics));
  app.notFound((c) => c.json({ message: "only /healthz, /readyz and /metrics here", errorCode: "NOT_FOUND" }, 404));
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(started));
    started.once("error", reject);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const url = `http://${options.host}:${port}`;
  options.logger.info({ url: `${url}/readyz` }, "health endpoints listening");
  return {
    url,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
