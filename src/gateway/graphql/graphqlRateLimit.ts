import type { RouteLimit } from "../http/routeLimits.js";

/**
 * Operations per second on POST/GET /graphql, by caller tier (API key, elevated key, or client address), counted
 * by the same limiter as the REST routes. One operation may hold many fields; the armor limits bound each one.
 */
export const GRAPHQL_RATE_LIMIT: RouteLimit = {
  name: "graphql",
  windowSeconds: 1,
  anonymous: 10,
  standard: 20,
  elevated: 50,
};
