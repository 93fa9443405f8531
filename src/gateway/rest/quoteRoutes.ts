import { Hono } from "hono";
import type pg from "pg";
import { type QuoteEngineDeps, createQuote } from "../../quote/createQuote.js";
import { quoteCallerOf } from "../../quote/quoteCallerOf.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { jsonBody } from "../http/jsonBody.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

/**
 * POST /quote and /quote/v2: the same fields and the same answer; a key is optional (the official client sends none).
 * Both paths spend one rate limit, counted before the body is read: a refused call reads no chain and writes nothing.
 */
export function quoteRoutes(
  deps: RateLimitDeps & { quoteEngine: QuoteEngineDeps; pool: pg.Pool; limit: RouteLimit },
): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const limited = rateLimit(deps, deps.limit);
  for (const path of ["/quote", "/quote/v2"]) {
    app.post(path, apiKeyAuth(deps.pool, { required: false }), limited, async (c) => {
      return c.json(await createQuote(deps.quoteEngine, await jsonBody(c), quoteCallerOf(c.get("apiKey"))));
    });
  }
  return app;
}
