import { DEFAULT_ROUTE_LIMITS, type RouteLimits, withRateLimitOverrides } from "../../src/gateway/http/routeLimits.js";
import { parseRateLimitOverrides } from "../../src/rateLimitOverrides.js";

/**
 * RATE_LIMITS for test stacks: the routes whose limits came with issue 22 (quotes, status, transaction indexing, app
 * fees) are not counted, so flows that poll every 20 ms or quote in bursts test what they test; the limits
 * themselves are tested in test/rateLimits.test.ts. The older limited routes keep their defaults.
 */
export const TEST_RATE_LIMITS = "quote=off,status=off,transactions-index=off,app-fees=off";

/** The route limits of a gateway configured with RATE_LIMITS=`rateLimits`. */
export function testRouteLimits(rateLimits = TEST_RATE_LIMITS): RouteLimits {
  return withRateLimitOverrides(DEFAULT_ROUTE_LIMITS, parseRateLimitOverrides(rateLimits));
}
