import { Hono } from "hono";
import type pg from "pg";
import { createPrice } from "../../quote/createPrice.js";
import type { QuoteEngineDeps } from "../../quote/createQuote.js";
import { quoteCallerOf } from "../../quote/quoteCallerOf.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import { jsonBody } from "../http/jsonBody.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

/**
 * POST /price: a quote's fees, sponsorship and details without an order; an API key is optional: it raises the rate
 * limit, and names the sponsor of `subsidizeFees` as on a quote.
 */
export function priceRoutes(
  deps: RateLimitDeps & { pool: pg.Pool; quoteEngine: QuoteEngineDeps; limit: RouteLimit },
): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.post("/price", apiKeyAuth(deps.pool, { required: false }), rateLimit(deps, deps.limit), async (c) => {
    return c.json(await createPrice(deps.quoteEngine, await jsonBody(c), quoteCallerOf(c.get("apiKey"))));
  });
  return app;
}
