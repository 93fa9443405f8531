import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { metricsRoute } from "../metrics/metricsRoute.js";
import { type ListeningApp, listenApp } from "../runtime/listenApp.js";
import { healthRoutes } from "./healthRoutes.js";
import type { Readiness } from "./readinessProbe.js";

export type HealthServer = ListeningApp;

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
  const server = await listenApp(app, options.host, options.port);
  options.logger.info({ url: `${server.url}/readyz` }, "health endpoints listening");
  return server;
}
