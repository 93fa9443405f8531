import type pg from "pg";
import { Hono } from "hono";
import { DEFAULT_ROUTE_LIMITS } from "../src/gateway/http/routeLimits.js";
import type { RateLimiter } from "../src/gateway/http/rateLimiter.js";
import { requestsRoutes } from "../src/gateway/rest/requestsRoutes.js";

/** GET /requests/v3 through its real route in process, its rate limits raised so a benchmark never hits them. */
export function requestsListingApp(pool: pg.Pool, limiter: RateLimiter, cursorSecret: Buffer): Hono {
  const generous = { anonymous: 1e9, standard: 1e9, elevated: 1e9 };
  return new Hono().route(
    "/",
    requestsRoutes({
      pool,
      registry: { chains: [], currency: () => undefined, currencies: () => [] },
      cursorSecret,
      limit: { ...DEFAULT_ROUTE_LIMITS.requestsV3, ...generous },
      limiter,
      now: () => new Date(),
      trustForwardedFor: false,
    }),
  );
}
