import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type pg from "pg";
import type { Logger } from "pino";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import type { QuoteEngineDeps } from "../quote/createQuote.js";
import { authorizeRoutes } from "./rest/authorizeRoutes.js";
import { chainRoutes } from "./rest/chainRoutes.js";
import { errorBody } from "./rest/errorBody.js";
import { quoteRoutes } from "./rest/quoteRoutes.js";
import { docsRoutes } from "./rest/docsRoutes.js";
import { integratorRoutes } from "./rest/integratorRoutes.js";
import { priceRoutes } from "./rest/priceRoutes.js";
import { removedRoutes } from "./rest/removedRoutes.js";
import { requestsRoutes } from "./rest/requestsRoutes.js";
import { requestsV2Routes } from "./rest/requestsV2Routes.js";
import { DEFAULT_ROUTE_LIMITS, type RouteLimits } from "./rest/rateLimit.js";
import { type RateLimiter, createPostgresRateLimiter } from "../rateLimits/rateLimiter.js";
import { DEFAULT_V2_THROTTLE, type ThrottleSchedule } from "../requests/v2Deprecation.js";
import { statusRoutes } from "./rest/statusRoutes.js";
import { transactionRoutes } from "./rest/transactionRoutes.js";

export type RestAppDeps = {
  pool: pg.Pool;
  registry: ChainRegistry;
  adapters: ChainAdapters;
  quoteEngine: QuoteEngineDeps;
  logger: Logger;
  /** Signs listing cursors; give every replica the same one (startApi derives it from API_KEY_ENCRYPTION_KEY). */
  cursorSecret?: Buffer;
  /** Shared counters (Redis or Postgres); defaults to Postgres on `pool`. */
  rateLimiter?: RateLimiter;
  routeLimits?: RouteLimits;
  v2Throttle?: ThrottleSchedule;
  /** Count X-Forwarded-For's first hop as the client (only behind a proxy that sets it). */
  trustForwardedFor?: boolean;
  /** The clock of rate windows and the v2 retirement; injectable for tests. */
  now?: () => Date;
};

// The largest legitimate body is a quote with 16 destination calls; anything far beyond it is refused unread.
const MAX_BODY_BYTES = 256 * 1024;

/** The REST surface: one route module per domain, errors translated to the spec's body here only. */
export function createRestApp(deps: RestAppDeps): Hono {
  const app = new Hono();
  const cursorSecret = deps.cursorSecret ?? randomBytes(32);
  const limits = {
    limiter: deps.rateLimiter ?? createPostgresRateLimiter(deps.pool),
    now: deps.now ?? (() => new Date()),
    trustForwardedFor: deps.trustForwardedFor ?? false,
  };
  const routeLimits = deps.routeLimits ?? DEFAULT_ROUTE_LIMITS;
  app.use("*", cors({ origin: "*", exposeHeaders: ["RateLimit", "RateLimit-Policy", "Retry-After"] }));
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        c.json({ message: `request body exceeds ${MAX_BODY_BYTES} bytes`, errorCode: "INVALID_INPUT" }, 413),
    }),
  );
  app.onError((error, c) => {
    const { status, body, headers } = errorBody(error);
    if (status >= 500) deps.logger.error({ err: error, path: c.req.path }, "request failed");
    return c.json(body, status as 400, headers);
  });
  app.notFound((c) => c.json({ message: `no route for ${c.req.method} ${c.req.path}`, errorCode: "NOT_FOUND" }, 404));

  app.route("/", chainRoutes(deps));
  app.route("/", quoteRoutes(deps));
  app.route("/", statusRoutes(deps));
  app.route("/", transactionRoutes(deps));
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
  app.route("/", removedRoutes());
  app.route("/", docsRoutes());
  app.route(
    "/",
    requestsV2Routes({
      ...deps,
      ...limits,
      cursorSecret,
      limit: routeLimits.requestsV2,
      throttle: deps.v2Throttle ?? DEFAULT_V2_THROTTLE,
    }),
  );
  return app;
}
