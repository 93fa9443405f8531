import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Request durations from a fast status read to a slow quote over a congested RPC. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One role's Prometheus registry: Node's process metrics (for the role's root) and the series every role shares, each labelled with the
 * role. Labels stay bounded (route patterns, status codes, error codes, chain ids): never request ids or addresses.
 */
export function createMetrics(role: string, options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  // Once per process (the role's root): each call starts its own event-loop and GC observers.
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: "crossfill_" });
  return {
    registry,
    httpRequestSeconds: new Histogram({
      name: "crossfill_http_request_duration_seconds",
      help: "HTTP requests served, by route pattern, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
    quotes: new Counter({
      name: "crossfill_quotes_total",
      help: "Quote requests by endpoint and outcome (quoted, refused, failed) with the refusal's errorCode",
      labelNames: ["endpoint", "outcome", "errorCode"] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
