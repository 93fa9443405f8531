import type { Context, MiddlewareHandler } from "hono";
import type { AuthEnv } from "./apiKeyAuth.js";
import { type RateLimitDeps, hitRateLimits } from "./hitRateLimits.js";
import { callerPolicy } from "./policyFor.js";
import type { RateLimitOutcome, RateLimitPolicy } from "./rateLimiter.js";
import type { RouteLimit } from "./routeLimits.js";

export function setRateLimitHeaders(c: Context, outcome: RateLimitOutcome): void {
  c.header("RateLimit", `limit=${outcome.policy.limit}, remaining=${outcome.remaining}, reset=${outcome.resetSeconds}`);
  c.header("RateLimit-Policy", `${outcome.policy.limit};w=${outcome.policy.windowSeconds}`);
}

/** hitRateLimits, with the RateLimit headers of the tightest policy on the response. */
export async function enforceRateLimits(deps: RateLimitDeps, c: Context, policies: RateLimitPolicy[]): Promise<void> {
  const tightest = await hitRateLimits(deps, policies);
  if (tightest) setRateLimitHeaders(c, tightest);
}

/**
 * Counts the call, sets RateLimit headers, and answers 429 with Retry-After past the limit. Runs after key auth;
 * a limit turned off (RATE_LIMITS `<name>=off`) counts nothing.
 */
export function rateLimit(deps: RateLimitDeps, limit: RouteLimit): MiddlewareHandler<AuthEnv> {
  if (limit.off) return async (_c, next) => next();
  return async (c, next) => {
    await enforceRateLimits(deps, c, [callerPolicy(c, limit, deps.trustForwardedFor)]);
    await next();
  };
}
