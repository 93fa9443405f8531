import { Hono } from "hono";
import type pg from "pg";
import { listRequestViews } from "../../../schema/requestsQuery.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import { authorizeRequestFilter } from "../../requests/authorizeRequestFilter.js";
import { hidePrivateChains } from "../../requests/hidePrivateChains.js";
import { buildRequestRecordV2 } from "../../requests/buildRequestRecordV2.js";
import { decodeCursor, encodeCursor } from "../../requests/continuationCursor.js";
import { parseRequestsV2Query } from "./parseRequestsV2Query.js";
import type { ThrottleSchedule } from "../../throttleSchedule.js";
import {
  V2_MIGRATION_GUIDE,
  V2_SUCCESSOR,
  v2DeprecationHeaders,
  v2DeprecationNotice,
  v2IsSunset,
  v2ThrottleShare,
} from "../../requests/v2Deprecation.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import { type RateLimitDeps, countCall } from "../http/hitRateLimits.js";
import { callerPolicy } from "../http/policyFor.js";
import { setRateLimitHeaders } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";
import { recordLookups } from "../../requests/recordLookups.js";

export type RequestsV2Deps = RateLimitDeps & {
  pool: pg.Pool;
  registry: ChainRegistry;
  cursorSecret: Buffer;
  limit: RouteLimit;
  throttle: ThrottleSchedule;
};

/**
 * GET /requests/v2 and its older path GET /requests (deprecated): deprecation headers on every answer, monthly
 * throttling, 410 after the sunset.
 */
export function requestsV2Routes(deps: RequestsV2Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const lookups = recordLookups(deps.registry);
  // The spec's older path answers as v2 does, counted with it (one limit for both).
  for (const path of ["/requests", "/requests/v2"]) {
    // Outermost, so that errors translated by the app's onError carry the headers too.
    app.use(path, async (c, next) => {
      await next();
      for (const [name, value] of Object.entries(v2DeprecationHeaders())) c.res.headers.set(name, value);
      const exposed = c.res.headers.get("Access-Control-Expose-Headers");
      c.res.headers.set(
        "Access-Control-Expose-Headers",
        [exposed, "Deprecation", "Sunset", "Link"].filter(Boolean).join(", "),
      );
    });
    app.use(path, async (c, next) => {
      if (!v2IsSunset(deps.now())) return next();
      return c.json(
        {
          message: `GET ${path} was retired on 2026-11-24; use GET /requests/v3`,
          successor: V2_SUCCESSOR,
          migrationGuide: V2_MIGRATION_GUIDE,
        },
        410,
      );
    });
    app.use(path, apiKeyAuth(deps.pool, { required: false }));
    app.use(path, async (c, next) => {
      const now = deps.now();
      const policy = callerPolicy(c, deps.limit, deps.trustForwardedFor, {
        share: v2ThrottleShare(deps.throttle, now),
      });
      const outcome = await countCall(deps, policy, now);
      if (!outcome.allowed) {
        // The spec's v2 429: no retry-after value, a pointer to the successor instead.
        return c.json(
          {
            message: `GET ${path} is deprecated and throttled to ${policy.limit} requests per second; move to GET /requests/v3`,
            successor: V2_SUCCESSOR,
            migrationGuide: V2_MIGRATION_GUIDE,
          },
          429,
        );
      }
      setRateLimitHeaders(c, outcome);
      return next();
    });
    app.get(path, async (c) => {
      const caller = c.get("apiKey");
      const parsed = parseRequestsV2Query(c.req.queries());
      const visible = hidePrivateChains(parsed.filter, deps.registry, parsed.privateChainsToInclude);
      const filter = await authorizeRequestFilter(deps.pool, visible, caller?.integrator, {
        referrerNeedsApiKey: false,
      });
      const sort = { sortBy: parsed.sortBy, sortDirection: parsed.sortDirection };
      const after =
        parsed.continuation === undefined ? undefined : decodeCursor(deps.cursorSecret, sort, parsed.continuation);
      const views = await listRequestViews(deps.pool, { filter, ...sort, limit: parsed.limit + 1, after });
      const page = views.slice(0, parsed.limit);
      const last = page.at(-1);
      const context = {
        ...lookups,
        callerIntegrator: caller?.integrator,
        includeAuthenticatedData: parsed.includeAuthenticatedData,
        includeOrderData: parsed.includeOrderData,
      };
      return c.json({
        requests: page.map((view) => buildRequestRecordV2(view, context)),
        continuation:
          views.length > parsed.limit && last
            ? encodeCursor(deps.cursorSecret, sort, { value: last.sortValue, id: last.id })
            : null,
        deprecation: v2DeprecationNotice(),
      });
    });
  }
  return app;
}
