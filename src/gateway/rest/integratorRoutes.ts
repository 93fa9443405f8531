import { Hono } from "hono";
import type pg from "pg";
import { getRequestQuoteData } from "../../../schema/requestQuoteData.js";
import { ForbiddenError, InvalidInputError, NotFoundError } from "../../domain/errors.js";
import { readStoredFeeSponsorship } from "../../domain/storedFeeSponsorship.js";
import { quoteDataQuerySchema } from "./requestsQuerySchemas.js";
import { validateQuery } from "../http/validateQuery.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

/**
 * GET /integrators/quote-data?requestId=…: what was quoted for one of the caller's requests (fees, details,
 * fee sponsorship with subsidizationBps, order). A key of the request's integrator is required.
 */
export function integratorRoutes(deps: RateLimitDeps & { pool: pg.Pool; limit: RouteLimit }): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.get(
    "/integrators/quote-data",
    apiKeyAuth(deps.pool, { required: true }),
    rateLimit(deps, deps.limit),
    async (c) => {
      for (const name of Object.keys(c.req.queries())) {
        if (name !== "requestId") throw new InvalidInputError("INVALID_INPUT", `${name}: unknown parameter`);
      }
      const { requestId } = validateQuery(quoteDataQuerySchema, c.req.queries());
      const data = await getRequestQuoteData(deps.pool, requestId.toLowerCase());
      if (!data) throw new NotFoundError("REQUEST_NOT_FOUND", `request ${requestId} was not found`);
      if (data.integrator !== c.get("apiKey")?.integrator)
        throw new ForbiddenError("requestId: the request was not quoted with a key of your integrator");
      const quote = (data.quote ?? {}) as { fees?: unknown; details?: unknown; feeSponsorship?: unknown };
      return c.json({
        requestId: data.id,
        quotedAt: data.createdAt.toISOString(),
        referrer: data.referrer,
        apiKeyName: data.apiKeyName,
        fees: quote.fees ?? null,
        details: quote.details ?? null,
        feeSponsorship: readStoredFeeSponsorship(quote.feeSponsorship) ?? null,
        protocol: { v2: { orderId: data.orderId, orderData: data.orderData } },
      });
    },
  );
  return app;
}
