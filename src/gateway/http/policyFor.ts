import type { Context } from "hono";
import type { ApiKeyRecord } from "../../../schema/apiKeys.js";
import type { AuthEnv } from "./apiKeyAuth.js";
import { clientAddress } from "./clientAddress.js";
import type { RateLimitPolicy } from "./rateLimiter.js";
import type { RouteLimit, Tier } from "./routeLimits.js";

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
