import type { RateLimitOverrides } from "../../rateLimitOverrides.js";

export type Tier = "anonymous" | "standard" | "elevated";
/**
 * Requests per window by caller tier; 0 means the tier is not served by this limit. `off` (RATE_LIMITS
 * `<name>=off`): the route is not counted at all.
 */
export type RouteLimit = { name: string; windowSeconds: number; off?: boolean } & Record<Tier, number>;

/** The spec's elevated limits, and our documented defaults for the others (docs/API.md). */
export const DEFAULT_ROUTE_LIMITS = {
  requestsV3: { name: "requests-v3", windowSeconds: 1, anonymous: 0, standard: 5, elevated: 20 },
  requestsV2: { name: "requests-v2", windowSeconds: 1, anonymous: 2, standard: 5, elevated: 10 },
  price: { name: "price", windowSeconds: 1, anonymous: 10, standard: 20, elevated: 50 },
  quoteData: { name: "quote-data", windowSeconds: 1, anonymous: 5, standard: 10, elevated: 20 },
  authorizeWallet: { name: "authorize-wallet", windowSeconds: 60, anonymous: 5, standard: 5, elevated: 5 },
  authorize: { name: "authorize", windowSeconds: 60, anonymous: 10, standard: 20, elevated: 30 },
  // Each quote reads chain state and writes a request (and its webhook deliveries): POST /quote, /quote/v2 and
  // GraphQL createQuote share one counter.
  quote: { name: "quote", windowSeconds: 1, anonymous: 5, standard: 20, elevated: 50 },
  // The spec recommends polling once a second per request: room for 20 requests followed at once per address.
  status: { name: "status", windowSeconds: 1, anonymous: 20, standard: 50, elevated: 100 },
  // A receipt (or Esplora) read and a write per call; the official client sends one per deposit.
  transactionsIndex: { name: "transactions-index", windowSeconds: 1, anonymous: 2, standard: 5, elevated: 10 },
  // Every /app-fees/* route together: balances (a price and chain read per currency), claims, claim execution.
  appFees: { name: "app-fees", windowSeconds: 1, anonymous: 5, standard: 10, elevated: 20 },
} satisfies Record<string, RouteLimit>;
export type RouteLimits = { [K in keyof typeof DEFAULT_ROUTE_LIMITS]: RouteLimit };

// Limits counted by the plain per-route middleware (rateLimit) may be turned off; the others have their own rules.
const MAY_BE_OFF = new Set(["quote", "status", "transactions-index", "app-fees", "price", "quote-data"]);

/**
 * `limits` with RATE_LIMITS applied by route name; an unknown name is an error (a typo would silently do nothing),
 * and so is `off` for a limit with rules of its own (authorize, the v2 throttle, the key-only v3 listing).
 */
export function withRateLimitOverrides(limits: RouteLimits, overrides: RateLimitOverrides): RouteLimits {
  const byName = new Map(Object.entries(limits).map(([key, limit]) => [limit.name, key as keyof RouteLimits]));
  const result = { ...limits };
  for (const [name, override] of Object.entries(overrides)) {
    const key = byName.get(name);
    if (!key)
      throw new Error(`RATE_LIMITS names an unknown route limit "${name}"; known: ${[...byName.keys()].join(", ")}`);
    if (override === "off" && !MAY_BE_OFF.has(name))
      throw new Error(`RATE_LIMITS: "${name}" cannot be off; give it numbers instead`);
    result[key] =
      override === "off"
        ? { ...limits[key], off: true }
        : { name, windowSeconds: limits[key].windowSeconds, ...override };
  }
  return result;
}
