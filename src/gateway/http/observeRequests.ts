import type { MiddlewareHandler } from "hono";
import { CrossfillError } from "../../domain/errors.js";
import type { Metrics } from "../../metrics/createMetrics.js";

const QUOTE_ROUTES = new Set(["/quote", "/quote/v2"]);

/**
 * Every REST and GraphQL-over-HTTP request into the latency histogram, labelled by the route's pattern (a path that
 * matched no route is `unmatched`, so probing URLs cannot grow the series), and each quote by its outcome.
 */
export function observeRequests(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const route = c.req.routePath === "/*" && status === 404 ? "unmatched" : c.req.routePath;
    metrics.httpRequestSeconds.observe(
      { route, method: c.req.method, status: String(status) },
      (performance.now() - started) / 1000,
    );
    if (c.req.method === "POST" && QUOTE_ROUTES.has(route)) {
      const outcome = status < 400 ? "quoted" : status < 500 ? "refused" : "failed";
      const errorCode = c.error instanceof CrossfillError ? c.error.errorCode : status < 400 ? "" : "UNKNOWN_ERROR";
      metrics.quotes.inc({ endpoint: route, outcome, errorCode });
    }
  };
}
