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
