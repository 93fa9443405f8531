import { Hono } from "hono";
import type pg from "pg";
import type { Logger } from "pino";
import { type StatusRecord, getStatusRecord } from "../../schema/statusRecord.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { QuoteEngineDeps } from "../quote/createQuote.js";
import { appFeeRoutes } from "./rest/appFeeRoutes.js";
import { authorizeRoutes } from "./rest/authorizeRoutes.js";
import { chainRoutes } from "./rest/chainRoutes.js";
import { corsHeaders } from "./http/corsHeaders.js";
import { errorBody } from "./http/errorBody.js";
import { limitBody } from "./http/limitBody.js";
import { quoteRoutes } from "./rest/quoteRoutes.js";
import { docsRoutes } from "./rest/docsRoutes.js";
import { integratorRoutes } from "./rest/integratorRoutes.js";
import { priceRoutes } from "./rest/priceRoutes.js";
import { removedRoutes } from "./rest/removedRoutes.js";
import { requestsRoutes } from "./rest/requestsRoutes.js";
import { requestsV2Routes } from "./rest/requestsV2Routes.js";
import type { RateLimitDeps } from "./http/hitRateLimits.js";
import type { RouteLimits } from "./http/routeLimits.js";
import type { ThrottleSchedule } from "../throttleSchedule.js";
import { statusRoutes } from "./rest/statusRoutes.js";
import { transactionRoutes } from "./rest/transactionRoutes.js";
import { chainReadiness } from "../health/chainReadiness.js";
import { databaseReadiness } from "../health/databaseReadiness.js";
import { healthRoutes } from "../health/healthRoutes.js";
import { type Metrics, createMetrics } from "../metrics/createMetrics.js";
import { metricsRoute } from "../metrics/metricsRoute.js";
import { observeRequests } from "./http/observeRequests.js";
import { createRequestFailureLog } from "./http/requestFailureLog.js";
import { type ReadinessCheck, createReadinessProbe } from "../health/readinessProbe.js";

export type RestAppDeps = {
  pool: pg.Pool;
  registry: ChainRegistry;
  adapters: ChainAdapters;
  quoteEngine: QuoteEngineDeps;
  logger: Logger;
  /** Signs listing cursors; every replica has the same one (restSettings derives it from API_KEY_ENCRYPTION_KEY). */
  cursorSecret: Buffer;
  /** The counters, clock and client address rule the server shares with GraphQL. */
  limits: RateLimitDeps;
  routeLimits: RouteLimits;
  v2Throttle: ThrottleSchedule;
  /** Status lookups (the gateway's cache); a Postgres read per lookup when absent. */
  statusLookup?: (requestId: string) => Promise<StatusRecord | undefined>;
  /** What `/readyz` asks besides Postgres and each chain's node (the root adds Redis where it has one). */
  readinessChecks?: readonly ReadinessCheck[];
  /**
   * The role's Prometheus registry: requests observed, served at `/metrics`. A registry of its own when absent; `false`
   * observes nothing and serves no `/metrics` (the benchmark's gateway without metrics).
   */
  metrics?: Metrics | false;
};

/** The REST surface: one route module per domain, errors translated to the spec's body here only. */
export function createRestApp(deps: RestAppDeps): Hono {
  const app = new Hono();
  const { cursorSecret, limits, routeLimits } = deps;
  const metrics = deps.metrics === false ? undefined : (deps.metrics ?? createMetrics("api"));
  if (metrics) app.use("*", observeRequests(metrics));
  app.use("*", corsHeaders(["RateLimit", "RateLimit-Policy", "Retry-After"]));
  app.use("*", limitBody());
  const logFailure = createRequestFailureLog(deps.logger);
  app.onError((error, c) => {
    const { status, body, headers } = errorBody(error);
    logFailure(error, { path: c.req.path });
    return c.json(body, status as 400, headers);
  });
  app.notFound((c) => c.json({ message: `no route for ${c.req.method} ${c.req.path}`, errorCode: "NOT_FOUND" }, 404));

  const readiness = createReadinessProbe(
    [databaseReadiness(deps.pool), ...(deps.readinessChecks ?? []), ...chainReadiness(deps.adapters)],
    { logger: deps.logger },
  );
  app.route("/", healthRoutes(readiness));
  if (metrics) app.route("/", metricsRoute(metrics.registry));
  app.route("/", chainRoutes(deps));
  app.route("/", quoteRoutes({ ...deps, ...limits, limit: routeLimits.quote }));
  app.route(
    "/",
    statusRoutes({
      ...deps,
      ...limits,
      limit: routeLimits.status,
      lookup: deps.statusLookup ?? ((requestId) => getStatusRecord(deps.pool, requestId)),
    }),
  );
  app.route("/", transactionRoutes({ ...deps, ...limits, limit: routeLimits.transactionsIndex }));
  app.route("/", requestsRoutes({ ...deps, ...limits, cursorSecret, limit: routeLimits.requestsV3 }));
  app.route("/", priceRoutes({ ...deps, ...limits, limit: routeLimits.price }));
  app.route("/", integratorRoutes({ ...deps, ...limits, limit: routeLimits.quoteData }));
  app.route(
    "/",
    authorizeRoutes({
      ...deps,
      ...limits,
      limits: { wallet: routeLimits.authorizeWallet, total: routeLimits.authorize },
    }),
  );
  app.route("/", appFeeRoutes({ ...deps, ...limits, prices: deps.quoteEngine.prices, limit: routeLimits.appFees }));
  app.route("/", removedRoutes());
  app.route("/", docsRoutes());
  app.route(
    "/",
    requestsV2Routes({
      ...deps,
      ...limits,
      cursorSecret,
      limit: routeLimits.requestsV2,
      throttle: deps.v2Throttle,
    }),
  );
  return app;
}
