import { Hono } from "hono";
import type pg from "pg";
import { countRequests } from "../../../schema/countRequests.js";
import { listRequestViews } from "../../../schema/requestsQuery.js";
import { authorizeRequestFilter } from "../../requests/authorizeRequestFilter.js";
import { hidePrivateChains } from "../../requests/hidePrivateChains.js";
import { buildRequestRecordV3 } from "../../requests/buildRequestRecordV3.js";
import { decodeCursor, encodeCursor } from "../../requests/continuationCursor.js";
import { parseRequestsV3Query } from "./parseRequestsQuery.js";
import { type RecordRegistry, recordLookups } from "../../requests/recordLookups.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

export type RequestsRouteDeps = RateLimitDeps & {
  pool: pg.Pool;
  registry: RecordRegistry;
  cursorSecret: Buffer;
  limit: RouteLimit;
};
/** GET /requests/v3: an active key is required; every filter of the spec; keyset pages behind an opaque cursor. */
export function requestsRoutes(deps: RequestsRouteDeps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const lookups = recordLookups(deps.registry);
  app.get("/requests/v3", apiKeyAuth(deps.pool, { required: true }), rateLimit(deps, deps.limit), async (c) => {
    const caller = c.get("apiKey");
    const parsed = parseRequestsV3Query(c.req.queries());
    const filter = await authorizeRequestFilter(
      deps.pool,
      hidePrivateChains(parsed.filter, deps.registry, parsed.privateChainsToInclude),
      caller?.integrator,
    );
    const sort = { sortBy: parsed.sortBy, sortDirection: parsed.sortDirection };
    const after =
      parsed.continuation === undefined ? undefined : decodeCursor(deps.cursorSecret, sort, parsed.continuation);
    // One row beyond the page tells whether another page exists.
    const [views, total] = await Promise.all([
      listRequestViews(deps.pool, { filter, ...sort, limit: parsed.limit + 1, after }),
      parsed.includeTotal ? countRequests(deps.pool, filter) : Promise.resolve(undefined),
    ]);
    const page = views.slice(0, parsed.limit);
    const last = page.at(-1);
    const continuation =
      views.length > parsed.limit && last
        ? encodeCursor(deps.cursorSecret, sort, { value: last.sortValue, id: last.id })
        : null;
    const context = {
      ...lookups,
      callerIntegrator: caller?.integrator,
      includeAuthenticatedData: parsed.includeAuthenticatedData,
    };
    return c.json({
      requests: page.map((view) => buildRequestRecordV3(view, context)),
      continuation,
      ...(total !== undefined ? { total } : {}),
    });
  });
  return app;
}
