import type { IncomingMessage } from "node:http";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { RateLimitedError, TransientError } from "../../domain/errors.js";
import type { RateLimitOutcome, RateLimitPolicy, RateLimiter } from "../../rateLimits/rateLimiter.js";
import type { ApiKeyRecord } from "../../../schema/apiKeys.js";
import type { AuthEnv } from "./apiKeyAuth.js";

export type Tier = "anonymous" | "standard" | "elevated";
/** Requests per window by caller tier; 0 means the tier is not served by this limit. */
export type RouteLimit = { name: string; windowSeconds: number } & Record<Tier, number>;

/** The spec's elevated limits, and our documented defaults for the others (docs/API.md). */
export const DEFAULT_ROUTE_LIMITS = {
  requestsV3: { name: "requests-v3", windowSeconds: 1, anonymous: 0, standard: 5, elevated: 20 },
  requestsV2: { name: "requests-v2", windowSeconds: 1, anonymous: 2, standard: 5, elevated: 10 },
  price: { name: "price", windowSeconds: 1, anonymous: 10, standard: 20, elevated: 50 },
  quoteData: { name: "quote-data", windowSeconds: 1, anonymous: 5, standard: 10, elevated: 20 },
  authorizeWallet: { name: "authorize-wallet", windowSeconds: 60, anonymous: 5, standard: 5, elevated: 5 },
  authorize: { name: "authorize", windowSeconds: 60, anonymous: 10, standard: 20, elevated: 30 },
} satisfies Record<string, RouteLimit>;
export type RouteLimits = typeof DEFAULT_ROUTE_LIMITS;

export type RateLimitDeps = { limiter: RateLimiter; now: () => Date; trustForwardedFor: boolean };

/** A client's address: the socket's peer, or the first X-Forwarded-For hop behind a trusted proxy. */
export function pickClientAddress(
  forwardedFor: string | undefined,
  peer: string | undefined,
  trustForwardedFor: boolean,
): string {
  const forwarded = trustForwardedFor ? forwardedFor?.split(",")[0]?.trim() : undefined;
  return forwarded || peer || "unknown";
}

/** The address of a client asking for a websocket upgrade (see pickClientAddress). */
export function upgradeClientAddress(request: IncomingMessage, trustForwardedFor: boolean): string {
  return pickClientAddress(
    request.headers["x-forwarded-for"]?.toString(),
    request.socket.remoteAddress,
    trustForwardedFor,
  );
}

/** The calling client's address (see pickClientAddress). */
export function clientAddress(c: Context, trustForwardedFor: boolean): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    peer = undefined;
  }
  return pickClientAddress(c.req.header("x-forwarded-for"), peer, trustForwardedFor);
}

/**
 * Who is counted: the API key when one authenticated, otherwise the client address; `scope` narrows the counter
 * further (the authorize limit counts per wallet), `share` keeps that part of the tier's limit, at least 1 (the
 * v2 throttle).
 */
export function policyFor(
  limit: RouteLimit,
  apiKey: ApiKeyRecord | undefined,
  address: () => string,
  options: { share?: number; scope?: string } = {},
): RateLimitPolicy {
  const tier: Tier = apiKey ? (apiKey.elevated ? "elevated" : "standard") : "anonymous";
  const who = apiKey ? `key:${apiKey.id}` : `ip:${address()}`;
  const base = limit[tier];
  return {
    name: limit.name,
    key: `${limit.name}:${who}${options.scope === undefined ? "" : `:${options.scope}`}`,
    limit: options.share === undefined ? base : Math.max(1, Math.ceil(base * options.share)),
    windowSeconds: limit.windowSeconds,
  };
}

/** policyFor the route's caller: its authenticated key, else its address. */
export function callerPolicy(
  c: Context<AuthEnv>,
  limit: RouteLimit,
  trustForwardedFor: boolean,
  options: { share?: number; scope?: string } = {},
): RateLimitPolicy {
  return policyFor(limit, c.get("apiKey"), () => clientAddress(c, trustForwardedFor), options);
}

export function setRateLimitHeaders(c: Context, outcome: RateLimitOutcome): void {
  c.header("RateLimit", `limit=${outcome.policy.limit}, remaining=${outcome.remaining}, reset=${outcome.resetSeconds}`);
  c.header("RateLimit-Policy", `${outcome.policy.limit};w=${outcome.policy.windowSeconds}`);
}

/** Counts one call against the policy; the counters' store (Redis, Postgres) being down is a 503, retryable. */
export async function countCall(
  deps: Pick<RateLimitDeps, "limiter">,
  policy: RateLimitPolicy,
  now: Date,
): Promise<RateLimitOutcome> {
  try {
    return await deps.limiter.hit(policy, now.getTime());
  } catch (error) {
    throw new TransientError("SERVICE_UNAVAILABLE", "rate limit counters are unavailable; retry shortly", error);
  }
}

/**
 * Counts the call against each policy in order and stops at the first one exceeded (RateLimitedError); answers
 * the outcome of the policy closest to its limit.
 */
export async function hitRateLimits(
  deps: RateLimitDeps,
  policies: RateLimitPolicy[],
): Promise<RateLimitOutcome | undefined> {
  let tightest: RateLimitOutcome | undefined;
  for (const policy of policies) {
    const outcome = await countCall(deps, policy, deps.now());
    if (!outcome.allowed) {
      throw new RateLimitedError(
        `rate limit of ${policy.limit} requests per ${policy.windowSeconds} s exceeded; retry after ${outcome.resetSeconds} s`,
        {
          retryAfterSeconds: outcome.resetSeconds,
          limit: policy.limit,
          windowSeconds: policy.windowSeconds,
          policy: policy.name,
        },
      );
    }
    if (!tightest || outcome.remaining < tightest.remaining) tightest = outcome;
  }
  return tightest;
}

/** hitRateLimits, with the RateLimit headers of the tightest policy on the response. */
export async function enforceRateLimits(deps: RateLimitDeps, c: Context, policies: RateLimitPolicy[]): Promise<void> {
  const tightest = await hitRateLimits(deps, policies);
  if (tightest) setRateLimitHeaders(c, tightest);
}

/** Counts the call, sets RateLimit headers, and answers 429 with Retry-After past the limit. Runs after key auth. */
export function rateLimit(deps: RateLimitDeps, limit: RouteLimit): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    await enforceRateLimits(deps, c, [callerPolicy(c, limit, deps.trustForwardedFor)]);
    await next();
  };
}
